/**
 * What the embedding model is doing right now, in one line: "Embedding with the built-in model: 40 of
 * 143 passages, about 2 min left". Passages still waiting are already found by their words; the line
 * says so. Nothing is shown while no passage waits.
 */
import { Sparkles } from "lucide-react";
import { useHealth } from "@/api/vault";
import { Progress } from "@/components/Progress";

export function EmbeddingNote({ compact = false }: { compact?: boolean }) {
  const progress = useHealth().data?.embedder.progress;
  if (!progress) return null;
  const share = progress.total > 0 ? progress.embedded / progress.total : 0;
  return (
    <div className="space-y-1.5 rounded-lg border border-line bg-surface-2 p-2.5 text-[13px]" data-testid="embedding-note" role="status">
      <p className="flex items-center gap-1.5 font-medium"><Sparkles size={14} className="shrink-0 text-accent" />{progress.sentence}</p>
      <Progress value={share} label={progress.sentence} />
      {!compact && (
        <p className="text-ink-muted">
          Until then, search finds the waiting passages by their words only; each batch is searchable by meaning as soon as it lands.
        </p>
      )}
    </div>
  );
}
