/**
 * Model status at a glance (green: ready; amber: degraded or a request just failed to reach the server;
 * red: the server is confirmed unreachable) with what to do about it on click. A failed request of any
 * screen turns the light amber at once and re-checks health, rather than waiting for the next poll.
 */
import { useEffect, useSyncExternalStore } from "react";
import type { components } from "@/api/schema";
import { useHealth } from "@/api/vault";
import { Popover } from "@/components/Popover";
import { CodeText } from "@/components/CodeText";
import { cn } from "@/lib/cn";
import { connectionFailing, subscribeConnection } from "@/lib/connection";

type EmbedderHealth = components["schemas"]["EmbedderHealth"];

/** The embedding model's state in a word: Ollama's is pulled or not; a built-in one loads at start. */
function embedderNote(embedder: EmbedderHealth): string {
  if (embedder.kind === "ollama") return embedder.ready ? "✓" : "— missing";
  if (embedder.state === "loading" || embedder.state === "not loaded") return "(built in) — loading";
  return embedder.ready ? "(built in) ✓" : "(built in) — not installed";
}

export function HealthIndicator() {
  const failing = useSyncExternalStore(subscribeConnection, connectionFailing);
  const health = useHealth({ failing });
  const { refetch } = health;
  useEffect(() => {
    if (failing) void refetch();
  }, [failing, refetch]);
  const data = health.data;
  const offline = health.isError;
  const ready = data?.status === "ok";
  const state = offline ? "offline" : failing ? "failing" : !data ? "checking" : ready ? "ready" : "degraded";
  const label = offline
    ? "Server unreachable"
    : failing
      ? "Server not answering…"
      : !data
      ? "Checking…"
      : data.embedder.progress
        ? data.embedder.progress.sentence
        : data.embedder.state === "loading"
          ? "Loading the built-in embedding model…"
          : data.privacy.flags.length > 0 && ready
            ? "Ready · data goes to another machine"
            : ready
        ? "All systems ready"
        : !data.ollama.reachable
          ? "Ollama is not running"
          : !data.ollama.chat_model.present
            ? "Chat model missing"
            : "Running with limits";
  const flagged = (data?.privacy.flags.length ?? 0) > 0;
  const dot = offline ? "bg-danger" : failing ? "bg-warn" : !data ? "bg-ink-faint" : ready && !flagged ? "bg-ok" : "bg-warn";

  return (
    <Popover
      label="System status"
      side="top"
      className="w-72"
      trigger={({ open, toggle, id }) => (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={toggle}
          data-testid="health-light"
          data-state={state}
          className="flex h-8 w-full items-center gap-2 rounded-lg px-2.5 text-[13px] text-ink-muted hover:bg-surface-2"
        >
          <span aria-hidden="true" className={cn("size-2 rounded-full", dot)} />
          <span className="truncate" title={label}>{label}</span>
        </button>
      )}
    >
      {() => (
        <div className="space-y-2 p-2 text-[13px]">
          {data ? (
            <>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                <dt className="text-ink-faint">Chat model</dt>
                <dd className="truncate">{data.ollama.chat_model.name} {data.ollama.chat_model.present ? "✓" : "— missing"}</dd>
                <dt className="text-ink-faint">Embeddings</dt>
                <dd className="min-w-0 break-words">{data.embedder.name} {embedderNote(data.embedder)}</dd>
                <dt className="text-ink-faint">Ollama</dt>
                <dd className="truncate">{data.ollama.reachable ? data.ollama.host : "not reachable"}</dd>
                <dt className="text-ink-faint">Database</dt>
                <dd>{data.postgres.ok ? "ok" : "unavailable"}</dd>
              </dl>
              {data.embedder.progress && (
                <p className="rounded-lg bg-surface-2 p-2" data-testid="health-embedding">{data.embedder.progress.sentence}</p>
              )}
              {data.hints.length > 0 && (
                <ul className="space-y-1 rounded-lg bg-warn-soft p-2 text-warn">
                  {data.hints.map((hint) => <li key={hint}><CodeText text={hint} /></li>)}
                </ul>
              )}
              <p className="text-ink-faint">Quire {data.version}</p>
            </>
          ) : (
            <p className="text-ink-muted">{offline ? "Quire's server isn't answering." : "Checking…"}</p>
          )}
        </div>
      )}
    </Popover>
  );
}
