# The orders service image that docker-compose.yml runs. Build context: the repository root.

# Build: `npm ci` installs everything and, through `prepare`, builds the TypeScript (dist/) and the
# WebAssembly planner (build/planner.wasm), so the sources are copied in first. Node 24 LTS, the line the
# tests run on. better-sqlite3 brings its own Node-API binaries; the full Debian image still has the
# compiler toolchain should a native module need building.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json asconfig.json ./
COPY assembly ./assembly
COPY projections ./projections
COPY src ./src
COPY demo ./demo
RUN npm ci && npm prune --omit=dev

# Run: the built service, its production dependencies, the demo seed document and the PDF's fonts, as the
# `node` user.
FROM node:24-bookworm-slim
# HOST: a container's loopback is unreachable from outside it; the service's own default is 127.0.0.1.
# ORDERS_SEED_FILE empty: no demo document (its API key is published); give your own master data.
# GLIBC_TUNABLES: what `npm start` sets, so that glibc gives back what a long catch-up freed (docs/configuration.md).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000 ORDERS_DATA_DIR=/data ORDERS_SEED_FILE= \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The service's planner only: the tests' build (build/planner-checks.wasm) stays behind.
COPY --from=build /app/build/planner.wasm ./build/planner.wasm
COPY --from=build /app/demo ./demo
# The PDF's fonts: the two weights it draws with, brotli-compressed (fonts/fonts.json).
COPY fonts ./fonts
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8000
# What `npm start` runs, started directly so that SIGTERM from `docker stop` reaches the service
# (it then stops gracefully) instead of an npm process in between.
CMD ["node", "dist/src/main.js"]
