# syntax=docker/dockerfile:1
#
# sudokubot in a container: one static binary on an empty base, run as an
# unprivileged user, its SQLite database on a volume.
#
#   docker build -t sudokubot .
#   docker run -d --name sudokubot --env-file .env -v sudokubot-data:/data sudokubot
#
# The database is /data/sudokubot.db (DATABASE_PATH); set DATABASE_URL to use
# PostgreSQL instead. /healthz, /readyz and /metrics are served on :9090
# (OPS_ADDR); publish it with -p 9090:9090 to scrape the metrics.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
# The modules first, so that a change to the code reuses this layer.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# CGO_ENABLED=0: a static binary (the SQLite driver is pure Go), which runs
# on an empty base image.
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/sudokubot . \
 && mkdir -p /out/data /out/tmp

FROM scratch
# Discord is reached over HTTPS: the base has no certificates of its own.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/sudokubot /sudokubot
# The volume's folder belongs to the user the bot runs as, so a new named
# volume starts writable.
COPY --from=build --chown=65532:65532 /out/data /data
# SQLite spills big sorts and VACUUM INTO (sudokubot backup) to temporary
# files: the base has no /tmp.
COPY --from=build --chmod=1777 /out/tmp /tmp
USER 65532:65532
WORKDIR /data
ENV DATABASE_PATH=/data/sudokubot.db \
    OPS_ADDR=:9090
VOLUME ["/data"]
EXPOSE 9090
# The bot serves /healthz only when OPS_ADDR (or INTERACTIONS_ADDR) is set;
# "sudokubot health" asks it, since the image has no curl or wget.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/sudokubot", "health"]
# SIGTERM (docker stop) makes the bot finish the replies in flight within
# SHUTDOWN_WAIT (10s); docker stop waits 10s by default: give it
# --stop-timeout 15 or set SHUTDOWN_WAIT under it.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/sudokubot"]
CMD ["run"]
