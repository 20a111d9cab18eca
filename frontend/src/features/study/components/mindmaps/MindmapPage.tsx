/**
 * A mind map: the canvas (or an outline), the layout switch (left→right / top→bottom), reset, and
 * exports (PNG and PDF rendered here, Markdown from the server), each recorded as study activity.
 * Dragged positions are saved shortly after the last move.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ChevronDown, Download, FileImage, FileText, FileType, RotateCcw, Trash2, X } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { Button, IconButton } from "@/components/Button";
import { Popover } from "@/components/Popover";
import { SkeletonRows } from "@/components/Skeleton";
import { Spinner } from "@/components/Spinner";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { downloadBlob, downloadUrl, slugify } from "@/lib/download";
import { plural } from "@/lib/format";
import { studyKeys } from "@/features/study/api/keys";
import { fetchMarkdown, recordExport, resetLayout, saveLayout, useDeleteMindmap, useMindmap } from "@/features/study/api/mindmaps";
import type { MapLayout, Mindmap, MindmapExportFormat, MindNode, Positions } from "@/features/study/api/types";
import { countNodes } from "@/features/study/lib/mindmap";
import { DeleteRecordDialog } from "../DeleteRecordDialog";
import { Segmented } from "../Segmented";
import { SourceLinks } from "../SourceLinks";
import { BackLink, PageShell } from "../StudyLayout";
import { pngToPdf, renderPng } from "./exportImage";
import { MindmapCanvas, type CanvasHandle } from "./MindmapCanvas";
import { MindmapOutline } from "./MindmapOutline";

type SaveState = "idle" | "saving" | "saved" | "error";
const SAVE_DELAY_MS = 600;
const LEVEL_NAMES = ["Central topic", "Topic", "Subtopic", "Detail"];

const EXPORTS: Array<{ format: MindmapExportFormat; label: string; hint: string; icon: typeof FileImage }> = [
  { format: "png", label: "PNG image", hint: "The whole map, sharp enough to print", icon: FileImage },
  { format: "pdf", label: "PDF", hint: "One page, sized to the map", icon: FileType },
  { format: "markdown", label: "Markdown outline", hint: "Nested bullet points", icon: FileText },
];

function useLayoutSaver(mapId: string) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SaveState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const queued = useRef<(() => Promise<void>) | null>(null);

  const run = useCallback(async (request: () => Promise<Mindmap>) => {
    setState("saving");
    try {
      queryClient.setQueryData(studyKeys.mindmap(mapId), await request());
      setState("saved");
    } catch {
      setState("error");
    }
  }, [mapId, queryClient]);

  const now = useCallback((request: () => Promise<Mindmap>) => {
    clearTimeout(timer.current);
    queued.current = null;
    return run(request);
  }, [run]);

  const later = useCallback((request: () => Promise<Mindmap>) => {
    clearTimeout(timer.current);
    queued.current = () => run(request);
    timer.current = setTimeout(() => {
      const job = queued.current;
      queued.current = null;
      void job?.();
    }, SAVE_DELAY_MS);
  }, [run]);

  // Leaving the page right after a drag still saves it.
  useEffect(() => () => {
    clearTimeout(timer.current);
    void queued.current?.();
  }, []);

  return { state, now, later };
}

function findNode(root: MindNode, id: string | null): { node: MindNode; depth: number } | null {
  if (!id) return null;
  const stack: Array<{ node: MindNode; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length) {
    const entry = stack.pop()!;
    if (entry.node.id === id) return entry;
    entry.node.children.forEach((child) => stack.push({ node: child, depth: entry.depth + 1 }));
  }
  return null;
}

function ExportMenu({ onExport, busy, canRender }: { onExport: (format: MindmapExportFormat) => void; busy: MindmapExportFormat | null; canRender: boolean }) {
  return (
    <Popover label="Export" align="end" className="w-72"
      trigger={({ open, toggle, id }) => (
        <Button aria-expanded={open} aria-controls={id} onClick={toggle} icon={busy ? <Spinner size={14} /> : <Download size={15} />} size="sm">
          Export <ChevronDown size={14} className="text-ink-faint" />
        </Button>
      )}
    >
      {(close) => (
        <div className="flex flex-col">
          {EXPORTS.map(({ format, label, hint, icon: Icon }) => {
            const disabled = busy !== null || (format !== "markdown" && !canRender);
            return (
              <button key={format} type="button" disabled={disabled}
                onClick={() => {
                  close();
                  onExport(format);
                }}
                title={format !== "markdown" && !canRender ? "Switch to the map view to export an image" : undefined}
                className="flex items-start gap-2.5 rounded-md px-2 py-1.5 text-left hover:bg-surface-2 disabled:opacity-50">
                <Icon size={16} className="mt-0.5 shrink-0 text-ink-faint" />
                <span>
                  <span className="block text-sm font-medium">{label}</span>
                  <span className="block text-xs text-ink-muted">{hint}</span>
                </span>
              </button>
            );
          })}
        </div>
      )}
    </Popover>
  );
}

const SAVE_TEXT: Record<SaveState, string> = { idle: "", saving: "Saving…", saved: "Layout saved", error: "Couldn't save the layout" };

function MapScreen({ map }: { map: Mindmap }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const remove = useDeleteMindmap();
  const { state: saveState, now: saveNow, later: saveLater } = useLayoutSaver(map.id);
  const canvas = useRef<CanvasHandle>(null);
  const [root] = useState(map.root);
  const [layout, setLayout] = useState<MapLayout>(map.layout);
  const [saved, setSaved] = useState<Positions>(map.positions);
  const [version, setVersion] = useState(0);
  const [view, setView] = useState<"map" | "outline">(() =>
    typeof matchMedia === "function" && matchMedia("(max-width: 639px)").matches ? "outline" : "map");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [exporting, setExporting] = useState<MindmapExportFormat | null>(null);
  const [confirming, setConfirming] = useState(false);
  const selected = findNode(root, selectedId);
  const nodeCount = useMemo(() => countNodes(root), [root]);

  const onMoved = useCallback((moved: Positions) => saveLater(() => saveLayout(map.id, layout, moved)), [saveLater, map.id, layout]);

  const relayout = (next: MapLayout) => {
    if (next === layout) return;
    setLayout(next);
    setSaved({});
    setVersion((v) => v + 1);
    void saveNow(() => saveLayout(map.id, next, {}));
  };

  const reset = () => {
    setLayout("LR");
    setSaved({});
    setVersion((v) => v + 1);
    void saveNow(() => resetLayout(map.id));
  };

  const exportAs = async (format: MindmapExportFormat) => {
    setExporting(format);
    const name = slugify(map.title, "mind-map");
    try {
      if (format === "markdown") {
        const { filename, blob } = await fetchMarkdown(map.id);
        downloadBlob(blob, filename ?? `${name}.md`);
      } else {
        const element = canvas.current?.element();
        if (!element) throw new Error("Switch to the map view to export an image.");
        const png = await renderPng(element, canvas.current?.nodes() ?? []);
        if (format === "png") downloadUrl(png.dataUrl, `${name}.png`);
        else downloadBlob(await pngToPdf(png), `${name}.pdf`);
      }
      await recordExport(map.id, format);
      void queryClient.invalidateQueries({ queryKey: studyKeys.mindmaps });
      toast({ tone: "success", title: `Exported as ${EXPORTS.find((e) => e.format === format)?.label ?? format}` });
    } catch (error) {
      toast({ tone: "error", title: "The export failed", body: errorMessage(error) });
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="flex h-full min-h-[560px] flex-col">
      <header className="shrink-0 space-y-3 border-b border-line bg-surface px-4 py-3 sm:px-6">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <BackLink to="/study">Study</BackLink>
            <h1 className="mt-0.5 truncate text-lg font-semibold tracking-tight" title={map.title}>{map.title}</h1>
            <p className="text-[13px] text-ink-muted">{plural(nodeCount, "topic")} · {map.depth} levels · drag topics to arrange them</p>
          </div>
          <IconButton label="Delete mind map" onClick={() => setConfirming(true)} className="hover:text-danger"><Trash2 size={16} /></IconButton>
        </div>
        <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Mind map">
          <Segmented label="View" size="sm" value={view} onChange={setView}
            options={[{ value: "map", label: "Map" }, { value: "outline", label: "Outline" }]} />
          {view === "map" && (
            <>
              <Segmented label="Layout" size="sm" value={layout} onChange={relayout}
                options={[{ value: "LR" as const, label: "Left → right" }, { value: "TB" as const, label: "Top → bottom" }]} />
              <Button size="sm" variant="ghost" icon={<RotateCcw size={14} />} onClick={reset}>Reset layout</Button>
            </>
          )}
          <span role="status" className="text-xs text-ink-faint" data-testid="layout-save-state" data-state={saveState}>
            {SAVE_TEXT[saveState]}
          </span>
          <span className="ml-auto" />
          <ExportMenu onExport={(format) => void exportAs(format)} busy={exporting} canRender={view === "map"} />
        </div>
      </header>

      <div className="relative min-h-0 flex-1">
        {view === "map" ? (
          <MindmapCanvas key={`${layout}-${version}`} ref={canvas} root={root} layout={layout} saved={saved}
            onMoved={onMoved} onSelect={setSelectedId} />
        ) : (
          <MindmapOutline root={root} />
        )}
        {view === "map" && selected && (
          <aside aria-label="Selected topic" data-testid="node-details"
            className="absolute bottom-3 left-3 z-10 w-[min(22rem,calc(100%-4.5rem))] rounded-xl border border-line bg-surface p-3 shadow-card">
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <p className="text-xs text-ink-faint">{LEVEL_NAMES[Math.min(selected.depth, 3)]}{selected.node.children.length ? ` · ${plural(selected.node.children.length, "subtopic")}` : ""}</p>
                <p className="mt-0.5 text-sm font-medium break-words">{selected.node.label}</p>
              </div>
              <IconButton label="Close" size="sm" onClick={() => setSelectedId(null)}><X size={15} /></IconButton>
            </div>
            {selected.node.sources.length > 0
              ? <SourceLinks sources={selected.node.sources} className="mt-2" />
              : <p className="mt-2 text-xs text-ink-faint">No passage recorded for this topic.</p>}
          </aside>
        )}
      </div>

      <DeleteRecordDialog open={confirming} id={map.id} remove={remove} onCancel={() => setConfirming(false)}
        title="Delete this mind map?"
        description="The map and its layout are removed. Files you exported stay where you saved them."
        confirmLabel="Delete mind map" />
    </div>
  );
}

export function MindmapPage() {
  const { mindmapId = "" } = useParams();
  const map = useMindmap(mindmapId);
  if (map.data) return <MapScreen key={map.data.id} map={map.data} />;
  return (
    <PageShell>
      <BackLink to="/study">Study</BackLink>
      {map.isPending && <SkeletonRows rows={6} label="Loading the mind map" />}
      {map.isError && <p role="alert" className="text-sm text-danger">This mind map couldn't be opened: {errorMessage(map.error)}</p>}
    </PageShell>
  );
}
