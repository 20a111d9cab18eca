/**
 * A recording: its original in the browser's audio player, started at the cited moment, beside its
 * transcript. The passage being heard is highlighted and kept in view as playback goes on; clicking a
 * passage plays from there. The original is served with range requests, so seeking needs no download.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { documentFileUrl } from "@/api/vault";
import type { ViewerBlock } from "@/api/viewer";
import { Button } from "@/components/Button";
import { SkeletonRows } from "@/components/Skeleton";
import { cn } from "@/lib/cn";
import { formatClock, languageName, timeSpan } from "@/lib/location";
import { Highlighted } from "./Highlighted";
import { useBlockWindow } from "./useBlockWindow";

interface Timed {
  block: ViewerBlock;
  start: number;
  end: number;
}

export function RecordingView({ documentId, block, terms, language }: {
  documentId: string; block: string | null; terms: readonly string[]; language: string | null;
}) {
  const { blocks, showEarlier, showLater } = useBlockWindow(documentId, block, 200);
  const player = useRef<HTMLAudioElement>(null);
  const [now, setNow] = useState<number | null>(null);
  const passages = useMemo<Timed[]>(
    () =>
      (blocks.data?.blocks ?? []).flatMap((b) => {
        const span = timeSpan(b.section);
        return span ? [{ block: b, start: span[0], end: span[1] }] : [];
      }),
    [blocks.data],
  );
  const cited = passages.find((p) => p.block.id === blocks.data?.target) ?? null;
  const citedStart = cited?.start ?? null;

  // Open at the cited moment: once the player knows the recording's length it can seek.
  useEffect(() => {
    const audio = player.current;
    if (!audio || citedStart === null) return;
    const seek = () => {
      audio.currentTime = citedStart;
      setNow(citedStart);
    };
    if (audio.readyState >= 1) seek();
    else audio.addEventListener("loadedmetadata", seek, { once: true });
    return () => audio.removeEventListener("loadedmetadata", seek);
  }, [citedStart]);

  // The passage heard last stays marked through the pause after it and once the recording has ended.
  const playing = now === null ? cited : (passages.findLast((p) => p.start <= now) ?? null);
  const playingId = playing?.block.id ?? null;
  useEffect(() => {
    if (!playingId) return;
    document.querySelector(`[data-passage="${CSS.escape(playingId)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [playingId]);

  if (blocks.isPending) return <SkeletonRows rows={8} label="Opening the recording" />;
  if (!blocks.data) return null;
  const data = blocks.data;
  const playFrom = (second: number) => {
    const audio = player.current;
    if (!audio) return;
    audio.currentTime = second;
    setNow(second);
    void audio.play().catch(() => undefined); // a browser may refuse to play before a user gesture
  };
  return (
    <div className="mx-auto w-full max-w-[760px]" data-testid="recording-view">
      <div className="sticky top-0 z-10 mb-3 rounded-xl border border-line bg-surface p-3 shadow-card">
        <audio ref={player} controls preload="metadata" className="w-full" data-testid="recording-player"
          src={documentFileUrl(documentId)} onTimeUpdate={(event) => setNow(event.currentTarget.currentTime)} />
        {language && (
          <p className="mt-1.5 text-[12px] text-ink-muted" data-testid="recording-language">
            Transcribed on this machine, heard as {languageName(language)}
          </p>
        )}
      </div>
      {data.notice && <p className="mb-3 rounded-lg bg-warn-soft p-3 text-[13px] text-ink">{data.notice}</p>}
      {data.has_before && (
        <Button size="sm" variant="ghost" className="mb-2" onClick={showEarlier}>Show earlier passages</Button>
      )}
      <ol className="space-y-1 rounded-xl border border-line bg-surface px-4 py-3 shadow-card">
        {passages.map((p) => {
          const current = p.block.id === playingId;
          return (
            <li key={p.block.id} data-passage={p.block.id} aria-current={current ? "true" : undefined}
              className={cn("flex gap-3 rounded-lg px-2 py-1.5 text-[14px] leading-relaxed", current && "bg-accent-soft ring-1 ring-accent/40")}>
              <button type="button" onClick={() => playFrom(p.start)} className="shrink-0 font-mono text-[12px] text-accent tabular-nums hover:underline"
                aria-label={`Play from ${formatClock(p.start)}`}>
                {formatClock(p.start)}
              </button>
              <span><Highlighted text={p.block.text} terms={p.block.id === data.target ? terms : []} /></span>
            </li>
          );
        })}
        {passages.length === 0 && <p className="text-sm text-ink-muted">No speech was transcribed from this recording.</p>}
      </ol>
      {data.has_after && (
        <Button size="sm" variant="ghost" className="mt-2" onClick={showLater}>Show later passages</Button>
      )}
    </div>
  );
}
