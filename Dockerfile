# ReinAgent as a headless server (a VPS, a home server): `serve` as an unprivileged user,
# the data directory on a volume. Build: docker build -t reinagent .
# Run:   docker run -d -p 8080:8080 -v reinagent-data:/data reinagent
# The URL with its token is printed in `docker logs`.

# deno compile fetches its runtime base from Deno's download server during this stage.
FROM denoland/deno:2.9.6 AS build
WORKDIR /src
COPY . .
RUN deno task compile --out-dir /out

FROM debian:bookworm-slim
# git for the git panel and tools, bubblewrap for the shell sandbox, ripgrep for fast search.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates git bubblewrap ripgrep \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 reinagent \
  && mkdir /data \
  && chown reinagent:reinagent /data
COPY --from=build /out/reinagent /usr/local/bin/reinagent
ENV REINAGENT_HOME=/data
VOLUME /data
USER reinagent
WORKDIR /data
EXPOSE 8080
ENTRYPOINT ["reinagent"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
