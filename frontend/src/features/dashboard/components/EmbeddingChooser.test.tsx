// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { type Embedding, embeddingKey } from "../api/embedding";
import { EmbeddingChooser } from "./EmbeddingChooser";

afterEach(cleanup);

const gemma = { model: "ollama:embeddinggemma", name: "embeddinggemma", kind: "ollama" as const, dimension: null };

function show(embedding: Embedding) {
  // The answer of GET /api/vault/embedding, already in the cache (the query itself is not run here).
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  client.setQueryData(embeddingKey, embedding);
  render(<QueryClientProvider client={client}><EmbeddingChooser /></QueryClientProvider>);
}

const inUse = { model: gemma.model, name: gemma.name, kind: gemma.kind, passages_per_s: null };

describe("EmbeddingChooser", () => {
  it("says Ollama is not running when it could not list Ollama's models", () => {
    show({ active: inUse, switch: null, choices: [], ollama_reachable: false });
    expect(screen.getByTestId("embedding-offer-note")).toHaveTextContent("Ollama isn't running");
    expect(screen.getAllByRole("option")).toHaveLength(1);
  });

  it("says how to offer another model when the one in use is the only one", () => {
    show({ active: inUse, switch: null, choices: [gemma], ollama_reachable: true });
    expect(screen.getByTestId("embedding-offer-note")).toHaveTextContent("No other embedding model is installed");
  });

  it("says nothing when there is another model to switch to", () => {
    const nomic = { ...gemma, model: "ollama:nomic-embed-text", name: "nomic-embed-text" };
    show({ active: inUse, switch: null, choices: [gemma, nomic], ollama_reachable: true });
    expect(screen.queryByTestId("embedding-offer-note")).toBeNull();
    expect(screen.getAllByRole("option")).toHaveLength(2);
  });
});
