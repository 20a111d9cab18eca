/**
 * An audio overview: the player with the script beside it. While the lines are being spoken the page
 * says how far it has got; once the audio is there, the line being heard is highlighted as it plays,
 * clicking a line plays from it, and each line's citations open the passage in the viewer. Download
 * saves the Ogg/Opus file. Every text is rendered as text (React escapes it).
 */
import { useRef, useState } from "react";
import { Download, Trash2 } from "lucide-react";
import { Link, Navigate, useNavigate, useParams } from "react-router";
import { Button } from "@/components/Button";
import { ConfirmDialog } from "@/components/Dialog";
import { SkeletonRows } from "@/components/Skeleton";
import { cn } from "@/lib/cn";
import { formatDateTime, plural } from "@/lib/format";
import { viewerHref } from "@/lib/viewerLinks";
import { useDeleteOverview, useOverview } from "@/features/study/api/overviews";
import type { Overview } from "@/features/study/api/types";
import { sourceLabel } from "@/features/study/lib/guides";
import { clockTime, lineAt } from "@/features/study/lib/overviews";
import { PageShell, Panel, StudyHeader } from "../StudyLayout";

function Script({ overview, current, onSeek }: { overview: Overview; current: number; onSeek: (seconds: number) => void }) {
  return (
    <ol className="space-y-1.5" data-testid="overview-script">
      {overview.lines.map((line, index) => (
        <li key={index} data-testid="overview-line" aria-current={index === current ? "true" : undefined}
          className={cn("rounded-xl border px-3 py-2 text-sm leading-relaxed transition-colors",
            index === current ? "border-accent/50 bg-accent-soft" : "border-transparent")}>
          <button type="button" disabled={line.start_s === null} onClick={() => line.start_s !== null && onSeek(line.start_s)}
            className="block w-full text-left disabled:cursor-default" title={line.start_s !== null ? "Play from this line" : undefined}>
            <span className="mr-2 text-xs font-semibold text-ink-muted">
              Host {line.speaker}{line.start_s !== null && ` · ${clockTime(line.start_s)}`}
            </span>
            <span>{line.text}</span>
          </button>
          {line.sources.length > 0 && (
            <span className="mt-1 flex flex-wrap gap-1.5 text-xs">
              {line.sources.map((source, n) => (
                <Link key={source.block_id} to={viewerHref(source.document_id, { block: source.block_id, page: source.page })}
                  className="rounded px-1 font-medium text-accent hover:bg-accent-soft" data-testid="overview-citation"
                  aria-label={`Source ${n + 1} of line ${index + 1}: ${sourceLabel(source)}`}>
                  {sourceLabel(source)}
                </Link>
              ))}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

function Player({ overview }: { overview: Overview }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [current, setCurrent] = useState(-1);
  const seek = (seconds: number) => {
    const element = audio.current;
    if (!element) return;
    element.currentTime = seconds;
    setCurrent(lineAt(overview.lines, seconds));
    void element.play().catch(() => undefined); // a browser may refuse to play before a gesture: the controls remain
  };
  return (
    <>
      <Panel>
        {overview.audio_url && (
          <audio ref={audio} controls preload="metadata" src={overview.audio_url} className="w-full" data-testid="overview-audio"
            onTimeUpdate={(event) => setCurrent(lineAt(overview.lines, event.currentTarget.currentTime))} />
        )}
        <p className="mt-2 text-xs text-ink-faint">
          Host A: {overview.voices.A} · Host B: {overview.voices.B}. Spoken on this machine.
        </p>
      </Panel>
      <Panel title="Script"><Script overview={overview} current={current} onSeek={seek} /></Panel>
    </>
  );
}

function Progress({ overview }: { overview: Overview }) {
  if (overview.state === "failed") {
    return (
      <div role="alert" className="rounded-xl border border-danger/30 bg-danger-soft px-4 py-3 text-[13px]">
        <p className="font-medium text-danger">The overview couldn't be spoken</p>
        <p className="mt-0.5 text-ink-muted">{overview.error?.message}</p>
      </div>
    );
  }
  return (
    <p role="status" className="rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink-muted">
      Speaking line {Math.min(overview.lines_done + 1, overview.line_count)} of {overview.line_count}…
    </p>
  );
}

export function OverviewPage() {
  const { overviewId = "" } = useParams();
  const overview = useOverview(overviewId);
  const remove = useDeleteOverview();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);
  if (overview.isError) return <Navigate to="/study" replace />;
  const data = overview.data;
  return (
    <PageShell narrow>
      <StudyHeader back={{ to: "/study", label: "Study" }} title={data?.title ?? "Audio overview"}
        subtitle={data ? `${plural(data.line_count, "line")}${data.duration_s ? ` · ${clockTime(data.duration_s)}` : ""} · made ${formatDateTime(data.created_at)}` : undefined}
        actions={data && (
          <>
            {data.download_url && (
              <a href={data.download_url} download className="inline-flex items-center gap-1.5 rounded-lg border border-line px-2.5 py-1 text-sm hover:bg-surface-2">
                <Download size={15} /> Download
              </a>
            )}
            <Button size="sm" variant="ghost" icon={<Trash2 size={15} />} onClick={() => setConfirm(true)} aria-label="Delete audio overview" />
          </>
        )} />
      {!data ? <SkeletonRows rows={8} label="Loading the overview" /> : data.state === "ready" ? <Player overview={data} /> : (
        <>
          <Progress overview={data} />
          <Panel title="Script"><Script overview={data} current={-1} onSeek={() => undefined} /></Panel>
        </>
      )}
      <ConfirmDialog open={confirm} onCancel={() => setConfirm(false)} title="Delete this audio overview?" confirmLabel="Delete overview"
        description="The script and its audio go; the sources stay in the library." busy={remove.isPending}
        onConfirm={() => remove.mutate(overviewId, { onSuccess: () => navigate("/study", { replace: true }) })} />
    </PageShell>
  );
}
