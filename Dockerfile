# syntax=docker/dockerfile:1
# The bot's container image (docs/hosting.md, "Docker"). Two stages: the first builds the native
# modules (better-sqlite3 needs python3, make and g++ when no prebuilt binary fits), the second
# runs the bot from the TypeScript sources as a non-root user, its database on the /data volume.
# Not built on the machine this was written on (no Docker there): see docs/hosting.md.

ARG NODE_VERSION=20.19

FROM node:${NODE_VERSION}-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The production dependencies, exactly as locked; native modules are built here.
RUN npm ci --omit=dev --no-audit --no-fund
# tsx runs the TypeScript sources (as `npm start` does); it is a development dependency of the
# project, so it is installed on its own, at the locked version, outside the app's node_modules.
RUN npm install --prefix /opt/tsx --no-save --no-audit --no-fund tsx@4.23.15

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATABASE_PATH=/data/mafia.db \
    HTTP_HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /opt/tsx /opt/tsx
COPY package.json tsconfig.json ./
COPY src ./src
COPY migrations ./migrations
COPY migrations-pg ./migrations-pg
COPY assets ./assets
# The node image's unprivileged user owns only the data folder.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# The operators' endpoint is off unless HTTP_PORT is set; the check passes when it is off (then
# only the process being alive is watched).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const p = process.env.HTTP_PORT; if (!p) process.exit(0); fetch('http://127.0.0.1:' + p + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));"]
# SIGTERM (docker stop) lets the bot finish pending work; node runs as PID 1 and handles it.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "file:///opt/tsx/node_modules/tsx/dist/loader.mjs", "src/index.ts"]
