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
ENV NODE_ENV=production \
    PORT=8080 \
    GATEWAY_CONFIG=/app/config/gateway.yaml
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node config ./config
USER node
EXPOSE 8080
# Liveness of the process itself; readiness (backend reachable, right version) is /readyz.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Mount your own calendar over /app/config/gateway.yaml (or set GATEWAY_CONFIG), and set UPSTREAM_URL.
CMD ["node", "dist/cli/main.js", "serve"]
