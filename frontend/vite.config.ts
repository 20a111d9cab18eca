/// <reference types="vitest/config" />
// Vite: React + Tailwind v4; the dev server proxies /api to the backend on 127.0.0.1:8000.
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, URL } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * Swagger UI's script and styles, copied from the pinned npm package into dist/api-docs/, so the API
 * docs page (/api/docs, served by the backend) loads nothing from a CDN. Its start-up script is
 * public/api-docs/init.js: the security policy allows no inline script.
 */
function swaggerUiAssets(): Plugin {
  const root = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return {
    name: "quire-swagger-ui-assets",
    apply: "build",
    generateBundle() {
      for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
        // Without the source-map comment: the map is not shipped, so nothing would answer for it.
        const source = readFileSync(join(root, file), "utf8").replace(/\n?\/[*/]# sourceMappingURL=\S+(\s*\*\/)?\s*$/, "\n");
        this.emitFile({ type: "asset", fileName: `api-docs/${file}`, source });
      }
      this.emitFile({ type: "asset", fileName: "api-docs/LICENSE.txt", source: readFileSync(join(root, "LICENSE"), "utf8") });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), swaggerUiAssets()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    proxy: { "/api": { target: "http://127.0.0.1:8000", changeOrigin: false } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  test: {
    // Pure logic runs in Node (fast); component tests opt into jsdom with a `@vitest-environment` comment.
    environment: "node",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    restoreMocks: true,
  },
});
