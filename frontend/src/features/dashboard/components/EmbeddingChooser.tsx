/**
 * Choose the vault's embedding model. A switch re-embeds every passage in the background; searches keep
 * using the current model until the new one covers them all, and the progress says so.
 */
import { useState } from "react";
import { Button } from "@/components/Button";
import { Select } from "@/components/Input";
import { Progress } from "@/components/Progress";
import { errorMessage } from "@/lib/api";
import { useEmbedding, useSwitchEmbedding } from "../api/embedding";

export function EmbeddingChooser() {
  const { data } = useEmbedding();
  const change = useSwitchEmbedding();
  const [choice, setChoice] = useState<string | null>(null); // null: show the model in use or being switched to
  if (!data) return null;
  const wanted = data.switch?.target ?? data.active.model;
  const picked = choice ?? wanted;
  const submit = (model: string | null) => change.mutate(model, { onSuccess: () => setChoice(null) });
  const { active, switch: running, choices } = data;
  const options = choices.some((choice) => choice.model === active.model)
    ? choices
    : [{ model: active.model, name: active.name, kind: active.kind ?? "ollama", dimension: null }, ...choices];
  return (
    <div className="mt-2 space-y-2" data-testid="embedding-chooser">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="embedding-model" className="sr-only">Embedding model</label>
        <Select id="embedding-model" className="min-w-[14rem] flex-1" value={picked} disabled={change.isPending}
          onChange={(event) => setChoice(event.target.value)}>
          {options.map((choice) => (
            <option key={choice.model} value={choice.model}>
              {choice.name} ({choice.kind === "local" ? "built in" : "Ollama"}){choice.model === active.model ? " · in use" : ""}
            </option>
          ))}
        </Select>
        <Button size="sm" variant="primary" loading={change.isPending} disabled={picked === wanted}
          onClick={() => submit(picked)}>
          {picked === active.model && running ? "Keep this model" : "Switch"}
        </Button>
        {running && (
          <Button size="sm" variant="ghost" disabled={change.isPending} onClick={() => submit(null)}>
            Cancel switch
          </Button>
        )}
      </div>
      {running && (
        <div className="space-y-1" data-testid="embedding-switch">
          <p className="text-xs text-ink-muted" role="status">
            Re-embedding with {running.name}: {running.done.toLocaleString("en")} of {running.total.toLocaleString("en")} passages;
            search uses {active.name} until done.
          </p>
          <Progress value={running.total ? running.done / running.total : 0}
            label={`Re-embedding with ${running.name}: ${running.done} of ${running.total} passages`} />
        </div>
      )}
      {!data.ollama_reachable ? (
        <p className="text-xs text-ink-muted" data-testid="embedding-offer-note">
          Ollama isn't running, so its embedding models aren't listed. Start it with <code>ollama serve</code>.
        </p>
      ) : options.length === 1 && (
        <p className="text-xs text-ink-muted" data-testid="embedding-offer-note">
          No other embedding model is installed. To offer one, pull it with <code>ollama pull nomic-embed-text</code>.
        </p>
      )}
      {change.isError && <p className="text-xs text-danger" role="alert">{errorMessage(change.error)}</p>}
    </div>
  );
}
