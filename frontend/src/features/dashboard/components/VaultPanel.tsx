/**
 * What the vault holds and where: documents and passages (with the embedded share), the search index,
 * the models (with the embedding model's chooser), the folders and their sizes, and every request the app
 * has made to the internet.
 */
import type { ReactNode } from "react";
import { CheckCircle2, Database, Globe, HardDrive, XCircle } from "lucide-react";
import { Badge } from "@/components/Badge";
import { Progress } from "@/components/Progress";
import { formatBytes, formatDateTime, formatPercent, formatRelative, plural } from "@/lib/format";
import type { VaultStats } from "../api/progress";
import { EmbeddingChooser } from "./EmbeddingChooser";
import { PrivacySection } from "./PrivacySection";

function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="min-w-0">
      <p className="text-xs text-ink-faint">{label}</p>
      <p className="text-lg font-semibold tabular-nums">{value}</p>
      {hint && <p className="text-xs text-ink-muted">{hint}</p>}
    </div>
  );
}

function Present({ ok, label }: { ok: boolean; label: string }) {
  return ok
    ? <span className="inline-flex items-center gap-1 text-ok"><CheckCircle2 size={13} />{label}</span>
    : <span className="inline-flex items-center gap-1 text-warn"><XCircle size={13} />{label}</span>;
}

/** Whether Ollama has a model: unknown while Ollama cannot be asked (not running is not "not installed"). */
function ollamaModelLabel(present: boolean, reachable: boolean): string {
  return present ? "present" : reachable ? "not installed" : "unknown: Ollama not reachable";
}

/** A built-in (in-process) model loads in the background at start; Ollama's is pulled or not. */
function embeddingLabel(embedding: VaultStats["models"]["embedding"], ollamaReachable: boolean): string {
  if (embedding.embedder !== "local") return ollamaModelLabel(embedding.present, ollamaReachable);
  if (embedding.state === "loading" || embedding.state === "not loaded") return "built in, loading";
  return embedding.present ? "built in" : "built in, not installed";
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-3 py-1.5 text-[13px]">
      <dt className="text-ink-faint">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Path({ path, bytes }: { path: string | null; bytes?: number | null }) {
  return (
    <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
      <code className="min-w-0 font-mono text-xs break-all text-ink-muted">{path ?? "external database"}</code>
      {bytes !== undefined && bytes !== null && <span className="text-xs text-ink-faint tabular-nums">{formatBytes(bytes)}</span>}
    </span>
  );
}

export function VaultPanel({ stats }: { stats: VaultStats }) {
  const { documents, blocks, index, storage, models, outbound, privacy } = stats;
  return (
    <div className="space-y-5" data-testid="vault-panel">
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Stat label="Documents" value={documents.total.toLocaleString("en")}
          hint={[documents.ingesting ? `${documents.ingesting} processing` : null, documents.failed ? `${documents.failed} failed` : null,
            plural(documents.categories, "category", "categories")].filter(Boolean).join(" · ")} />
        <Stat label="Passages" value={blocks.total.toLocaleString("en")} hint={`${formatPercent(blocks.embedded_share)} embedded`} />
        <Stat label="Originals" value={formatBytes(documents.original_bytes)} hint="kept in the database" />
        <Stat label="Outbound requests" value={outbound.requests.toLocaleString("en")}
          hint={outbound.last_at ? `last ${formatRelative(outbound.last_at)}` : "none so far"} />
      </div>
      {blocks.total > 0 && (
        <Progress value={blocks.embedded_share} label={`${formatPercent(blocks.embedded_share)} of passages embedded`}
          tone={blocks.embedded_share >= 1 ? "ok" : "accent"} />
      )}

      <div className="grid gap-5 lg:grid-cols-2">
        <section aria-labelledby="models-title">
          <h3 id="models-title" className="mb-1 flex items-center gap-1.5 text-xs font-medium tracking-wide text-ink-faint uppercase"><Database size={13} />Models and index</h3>
          <dl className="divide-y divide-line">
            <Row label="Chat model"><span className="mr-2 font-medium">{models.chat.name}</span><Present ok={models.chat.present} label={ollamaModelLabel(models.chat.present, models.ollama.reachable)} /></Row>
            <Row label="Embeddings"><span className="mr-2 font-medium">{models.embedding.name}</span><Present ok={models.embedding.present} label={embeddingLabel(models.embedding, models.ollama.reachable)} />
              <span className="block text-xs text-ink-faint" data-testid="embedding-speed">
                {models.embedding.passages_per_s
                  ? `${models.embedding.passages_per_s.toFixed(1)} passages/s measured here`
                  : "speed not measured yet (nothing embedded since start)"} · vectors recorded as {models.embedding.recorded_as}
              </span>
              <EmbeddingChooser /></Row>
            <Row label="Ollama"><span className="mr-2 break-all">{models.ollama.host}</span><Present ok={models.ollama.reachable} label={models.ollama.reachable ? `${plural(models.ollama.available.length, "model")}` : "not reachable"} /></Row>
            <Row label="Search index">{index.state} · {plural(index.blocks, "passage")}{index.dimension ? ` · ${index.dimension} dimensions` : ""} · {formatBytes(index.memory_bytes)} in memory</Row>
          </dl>
        </section>
        <section aria-labelledby="storage-title">
          <h3 id="storage-title" className="mb-1 flex items-center gap-1.5 text-xs font-medium tracking-wide text-ink-faint uppercase"><HardDrive size={13} />Storage on this machine</h3>
          <dl className="divide-y divide-line">
            <Row label="Data folder"><Path path={storage.data_dir.path} bytes={storage.data_dir.bytes} /></Row>
            <Row label="Originals cache"><Path path={storage.docs_dir.path} bytes={storage.docs_dir.bytes} /></Row>
            <Row label="Database"><Path path={storage.database.path} bytes={storage.database.bytes} />{storage.database.embedded && <Badge className="mt-1">bundled Postgres</Badge>}</Row>
            <Row label="Prompts"><Path path={storage.prompts_dir.path} /></Row>
          </dl>
        </section>
      </div>

      <PrivacySection privacy={privacy} />

      <section aria-labelledby="outbound-title">
        <h3 id="outbound-title" className="mb-1 flex items-center gap-1.5 text-xs font-medium tracking-wide text-ink-faint uppercase"><Globe size={13} />Requests to the internet</h3>
        {outbound.recent.length === 0 ? (
          <p className="text-[13px] text-ink-muted">None. Quire only goes online when you import a web page by its URL.</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="outbound-list">
            {outbound.recent.map((request) => (
              <li key={`${request.created_at}-${request.url}`} className="flex items-center gap-3 py-1.5 text-[13px]">
                <Badge tone={request.ok ? "ok" : "danger"}>{request.status ?? "failed"}</Badge>
                <span className="min-w-0 flex-1 truncate" title={request.url}>{request.url}</span>
                <span className="shrink-0 text-xs text-ink-faint" title={formatDateTime(request.created_at)}>{formatRelative(request.created_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
