# mcp-sunset as a container: the package built and packed in one stage, installed from its tarball
# in the next (what `npm install mcp-sunset` gives a user), run as the image's unprivileged `node` user.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && mkdir /pack && npm pack --pack-destination /pack

FROM node:20-bookworm-slim
ENV NODE_ENV=production
COPY --from=build /pack/ /pack/
RUN npm install --global --omit=dev --no-audit --no-fund /pack/mcp-sunset-*.tgz \
  && rm -rf /pack /root/.npm \
  && mkdir /data && chown node:node /data
USER node
WORKDIR /data
# 8808: the sidecar proxy clients call; 8809: the API, dashboard, /healthz and /metrics.
EXPOSE 8808 8809
ENTRYPOINT ["mcp-sunset"]
CMD ["serve", "--listen", "0.0.0.0:8808", "--dashboard", "0.0.0.0:8809", "--db", "/data/mcp-sunset.db"]
