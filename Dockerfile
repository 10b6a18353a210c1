# syntax=docker/dockerfile:1
#
# The toolpipe worker (and the starter CLI beside it) for a Temporal cluster: see
# docker-compose.yml. Build: docker build -t toolpipe .
# Run:   docker run -e TEMPORAL_ADDRESS=temporal.example:7233 -v toolpipe-state:/var/lib/toolpipe toolpipe

# --- build ------------------------------------------------------------------
FROM golang:1.26-bookworm AS build
# The Temporal server packages linked into the starter (the embedded dev server;
# the worker is built without them, -tags toolpipe_noserver) need this Go; the image's own Go fetches it through the module proxy, as the
# README's test command does.
ENV GOTOOLCHAIN=go1.27.3 \
    CGO_ENABLED=0 \
    GOFLAGS=-buildvcs=false
WORKDIR /src
# Dependencies first: this layer is rebuilt only when go.mod/go.sum change.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -ldflags="-s -w" -o /out/starter ./cmd/starter \
    && go build -trimpath -ldflags="-s -w" -tags toolpipe_noserver -o /out/worker ./cmd/worker

# --- runtime ----------------------------------------------------------------
FROM debian:bookworm-slim
# bash runs the Bash tool, ripgrep the Grep tool; ca-certificates for a cluster
# (or a model API) behind TLS.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        bash ca-certificates ripgrep \
    && rm -rf /var/lib/apt/lists/*
# Tools run the model's commands: not as root. UID 1000 matches the usual first
# user of a Linux host, so files the tools write in a bind-mounted /workspace
# belong to that user (override with --build-arg UID=...).
ARG UID=1000
RUN useradd --create-home --uid "${UID}" --shell /bin/bash toolpipe \
    && mkdir -p /var/lib/toolpipe /workspace \
    && chown toolpipe:toolpipe /var/lib/toolpipe /workspace
COPY --from=build /out/worker /out/starter /usr/local/bin/
USER toolpipe
WORKDIR /workspace
# The state directory holds persisted tool outputs and large payloads; every
# worker and starter of a cluster must see the same one, so it is a volume.
ENV TOOLPIPE_STATE_DIR=/var/lib/toolpipe
VOLUME ["/var/lib/toolpipe"]
# TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, or a profile) say where the cluster is.
# The worker stops gracefully on SIGTERM: running tools get 10 s to finish, then
# are cancelled and reported to their turns as ended by the shutdown.
STOPSIGNAL SIGTERM
ENTRYPOINT ["worker"]
