# Quire app image: Python backend + built web app. Postgres comes from the `db` service.
FROM node:20-bookworm-slim AS web
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY backend/ backend/
COPY prompts/ prompts/
COPY --from=web /app/frontend/dist frontend/dist
RUN useradd --create-home quire && mkdir -p /data && chown quire /data
USER quire
ENV QUIRE_DATA_DIR=/data QUIRE_HOST=0.0.0.0 QUIRE_PORT=8000
EXPOSE 8000
CMD ["python", "-m", "backend.main"]
