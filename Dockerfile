# syntax=docker/dockerfile:1
# One image recipe for every Switchyard service; the build argument SERVICE picks which (PORT is its
# port). Build context = the repository root. scripts/build-images.sh builds and tags all of them:
#   docker build --build-arg SERVICE=posts --build-arg PORT=8067 -t switchyard/posts:dev .
#
# Base image: Node 24 LTS on Debian bookworm (slim), pinned by digest so a rebuild of the same commit
# gets the same base. The digest is that of node:24-bookworm-slim (Node 24.18.0) as pinned in public
# repositories; refresh it deliberately (docs/deploy.md "Images": `docker buildx imagetools inspect
# node:24-bookworm-slim`, then replace NODE_IMAGE here, or pass --build-arg NODE_IMAGE=...).
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# --- manifests: every workspace's package.json and the lockfile, nothing else. `npm ci` needs the
# manifest of every workspace the lockfile names; the layers below stay cached until one changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
 && find . -depth -type d -empty -delete

# --- build: all dependencies (dev included; native ones such as better-sqlite3 may compile, hence the
# toolchain), then compile the service and the shared packages its tsconfig references.
FROM ${NODE_IMAGE} AS build
ARG SERVICE=gateway
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3=3.11.* make=4.3-* g++=4:12.* \
 && rm -rf /var/lib/apt/lists/*
COPY --from=manifests /src/ ./
RUN --mount=type=cache,target=/root/.npm npm ci
COPY tsconfig*.json ./
COPY shared/ ./shared/
COPY services/ ./services/
# The web console, which the gateway serves at / (its CONSOLE_DIR defaults to apps/console/dist).
COPY apps/console/ ./apps/console/
RUN test -f "services/${SERVICE}/src/main.ts" || { echo "SERVICE=${SERVICE}: no services/${SERVICE}/src/main.ts" >&2; exit 1; } \
 && npx tsc -b "services/${SERVICE}" \
 && if [ "${SERVICE}" = gateway ]; then npm run build:bundle -w @switchyard/console; fi \
 && mkdir /out \
 && for d in shared/*/dist "services/${SERVICE}/dist" "services/${SERVICE}/templates" "$([ "${SERVICE}" = gateway ] && echo apps/console/dist)"; do if [ -n "$d" ] && [ -d "$d" ]; then cp -a --parents "$d" /out/; fi; done \
 && find /out -name '*.tsbuildinfo' -delete

# --- deps: production dependencies of this service's workspace only (and the workspaces it uses).
FROM build AS deps
ARG SERVICE=gateway
RUN rm -rf node_modules \
 && npm ci --omit=dev --workspace "services/${SERVICE}" \
 && npm cache clean --force

# --- runtime: compiled JavaScript and production dependencies, run as a non-root user.
FROM ${NODE_IMAGE} AS runtime
ARG SERVICE=gateway
ARG PORT=8065
ENV NODE_ENV=production \
    SERVICE=${SERVICE} \
    PORT=${PORT} \
    HOST=0.0.0.0 \
    KAFKAJS_NO_PARTITIONER_WARNING=1
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/shared ./shared
COPY --from=deps /app/services/${SERVICE}/package.json ./services/${SERVICE}/package.json
COPY --from=build /out/ ./
# posts' files on the local driver (compose's volume posts-files is mounted here and takes this owner).
RUN mkdir -p /var/lib/switchyard/files && chown 1000:1000 /var/lib/switchyard/files
# The image's "node" user, by number so that Kubernetes' runAsNonRoot can check it.
USER 1000:1000
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The heap and malloc settings every Switchyard process runs with (deploy/node-runtime.env; NODE_OPTIONS and
# MALLOC_* set by compose or k8s still apply: see node-runtime.sh).
COPY deploy/node-runtime.env deploy/node-runtime.sh ./deploy/
# instrumentation.js starts OpenTelemetry (when OTEL_* asks for it) before the service's modules load.
CMD ["sh", "-c", "exec sh deploy/node-runtime.sh --require \"./services/$SERVICE/dist/instrumentation.js\" \"services/$SERVICE/dist/main.js\""]
