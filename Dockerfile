# syntax=docker/dockerfile:1
# dl-version-gateway: multi-stage build, runs as a non-root user on the current Node LTS.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:24-bookworm-slim AS runtime
# No PORT here: it would override listen.port of a mounted config. The shipped config listens on 8080.
ENV NODE_ENV=production \
    GATEWAY_CONFIG=/app/config/gateway.yaml
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node config ./config
USER node
EXPOSE 8080
# Liveness of the process itself, on the port serve listens on (PORT, else listen.port of the config);
# readiness (backend reachable, right version) is /readyz.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "dist/cli/healthcheck.js"]
# Mount a folder holding your gateway.yaml and point GATEWAY_CONFIG at it (a folder, so that saves by rename
# reach the gateway), and set UPSTREAM_URL.
CMD ["node", "dist/cli/main.js", "serve"]
