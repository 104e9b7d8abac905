// The API's bodies are JSON: application/json or any application/*+json, with or without parameters.

const JSON_MEDIA = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;.*)?$/i;

export const isJsonMediaType = (value: string | undefined): boolean => !!value && JSON_MEDIA.test(value.trim());
