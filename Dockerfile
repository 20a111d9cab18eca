# Quire app image: Python backend + built web app. Postgres comes from the `db` service.
# Build arguments (docker-compose.yaml passes them from the environment):
#   QUIRE_EMBEDDER=local   build in the in-process embedder (requirements-local.txt, CPU torch) and use it
#                          by default, so embeddings need no Ollama; `ollama` (default) leaves it out.
#   QUIRE_VOICE=true       build in speech to text for voice questions (requirements-voice.txt).
FROM node:20-bookworm-slim AS web
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ARG QUIRE_EMBEDDER=ollama
ARG QUIRE_VOICE=false
# The CPU build of torch (the default one pulls in several GB of CUDA libraries a CPU server never uses).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
RUN apt-get update && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt requirements-local.txt requirements-voice.txt ./
RUN pip install --no-cache-dir -r requirements.txt
RUN if [ "$QUIRE_EMBEDDER" = "local" ]; then \
        pip install --no-cache-dir --index-url "$TORCH_INDEX_URL" torch==2.13.0 \
        && pip install --no-cache-dir -r requirements-local.txt; \
    fi
RUN if [ "$QUIRE_VOICE" = "true" ]; then pip install --no-cache-dir -r requirements-voice.txt; fi
COPY backend/ backend/
COPY prompts/ prompts/
COPY --from=web /app/frontend/dist frontend/dist
RUN useradd --create-home quire && mkdir -p /data && chown quire /data
USER quire
ENV QUIRE_DATA_DIR=/data QUIRE_HOST=0.0.0.0 QUIRE_PORT=8000 QUIRE_EMBEDDER=${QUIRE_EMBEDDER}
# Each container's own data folder (caches and its executor id); originals and everything else are in Postgres.
VOLUME /data
EXPOSE 8000
# Server or worker alike: its heartbeat reached Postgres recently (and a server answers /api/health/ready).
HEALTHCHECK --interval=15s --timeout=15s --start-period=300s --retries=4 CMD ["python", "-m", "backend.cluster.healthcheck"]
CMD ["python", "-m", "backend.main"]
