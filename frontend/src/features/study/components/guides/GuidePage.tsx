/**
 * A study guide: a briefing under its headings, an FAQ, a glossary or a timeline. Every statement ends
 * with its citations, each opening the passage in the viewer; the sources are listed at the end. Export
 * as Markdown (from the server) or as a PDF (made here).
 */
import { useState } from "react";
import { FileDown, FileText, Trash2 } from "lucide-react";
import { Link, Navigate, useNavigate, useParams } from "react-router";
import { Button } from "@/components/Button";
import { ConfirmDialog } from "@/components/Dialog";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { downloadBlob, downloadUrl, slugify } from "@/lib/download";
import { formatDateTime } from "@/lib/format";
import { viewerHref } from "@/lib/viewerLinks";
import { guideExportUrl, useDeleteGuide, useGuide } from "@/features/study/api/guides";
import type { Guide, Source } from "@/features/study/api/types";
import { GUIDE_NOUN, guidePdf, numberCitations, sourceLabel } from "@/features/study/lib/guides";
import { PageShell, Panel, StudyHeader } from "../StudyLayout";

function Marks({ marks, sources }: { marks: number[]; sources: Source[] }) {
  return (
    <>
      {marks.map((n) => {
        const source = sources[n - 1];
        if (!source) return null;
        return (
          <Link key={n} to={viewerHref(source.document_id, { block: source.block_id, page: source.page })}
            className="ml-0.5 rounded px-0.5 align-super text-[11px] font-semibold text-accent hover:bg-accent-soft"
            aria-label={`Source ${n}: ${sourceLabel(source)}`} data-testid="guide-citation">
            [{n}]
          </Link>
        );
      })}
    </>
  );
}

function Entries({ guide }: { guide: Guide }) {
  const { entries, sources } = numberCitations(guide);
  if (guide.guide_type === "briefing") {
    const sections: Array<{ heading: string; items: typeof entries }> = [];
    for (const entry of entries) {
      const last = sections.at(-1);
      if (last && last.heading === entry.heading) last.items.push(entry);
      else sections.push({ heading: entry.heading, items: [entry] });
    }
    return (
      <div className="space-y-5">
        {sections.map((section, index) => (
          <section key={index}>
            <h2 className="mb-2 text-base font-semibold">{section.heading}</h2>
            <ul className="list-disc space-y-1.5 pl-5 text-sm leading-relaxed">
              {section.items.map((entry, i) => <li key={i} data-testid="guide-entry">{entry.text}<Marks marks={entry.marks} sources={sources} /></li>)}
            </ul>
          </section>
        ))}
      </div>
    );
  }
  if (guide.guide_type === "faq") {
    return (
      <dl className="space-y-4">
        {entries.map((entry, i) => (
          <div key={i} data-testid="guide-entry">
            <dt className="text-sm font-semibold">{entry.heading}</dt>
            <dd className="mt-1 text-sm leading-relaxed text-ink">{entry.text}<Marks marks={entry.marks} sources={sources} /></dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <ol className={guide.guide_type === "timeline" ? "relative space-y-3 border-l border-line-strong pl-4" : "space-y-2.5"}>
      {entries.map((entry, i) => (
        <li key={i} className="text-sm leading-relaxed" data-testid="guide-entry">
          <span className="font-semibold">{entry.heading}</span> — {entry.text}<Marks marks={entry.marks} sources={sources} />
        </li>
      ))}
    </ol>
  );
}

export function GuidePage() {
  const { guideId = "" } = useParams();
  const guide = useGuide(guideId);
  const remove = useDeleteGuide();
  const navigate = useNavigate();
  const toast = useToast();
  const [confirm, setConfirm] = useState(false);
  if (guide.isError) return <Navigate to="/study" replace />;
  const data = guide.data;
  const pdf = async () => {
    if (!data) return;
    try {
      downloadBlob(await guidePdf(data), `${slugify(data.title, "study-guide")}.pdf`);
    } catch (error) {
      toast({ tone: "error", title: "The PDF couldn't be made", body: errorMessage(error) });
    }
  };
  return (
    <PageShell narrow>
      <StudyHeader back={{ to: "/study", label: "Study" }} title={data?.title ?? "Study guide"}
        subtitle={data ? `${GUIDE_NOUN[data.guide_type]} · made ${formatDateTime(data.created_at)}` : undefined}
        actions={data && (
          <>
            <Button size="sm" icon={<FileText size={15} />} onClick={() => downloadUrl(guideExportUrl(data.id), `${slugify(data.title, "study-guide")}.md`)}>Markdown</Button>
            <Button size="sm" icon={<FileDown size={15} />} onClick={() => void pdf()}>PDF</Button>
            <Button size="sm" variant="ghost" icon={<Trash2 size={15} />} onClick={() => setConfirm(true)} aria-label="Delete guide" />
          </>
        )} />
      {!data ? <SkeletonRows rows={8} label="Loading the guide" /> : (
        <>
          <Panel><Entries guide={data} /></Panel>
          <Panel title="Sources">
            <ol className="space-y-1 text-sm" data-testid="guide-sources">
              {numberCitations(data).sources.map((source, index) => (
                <li key={source.block_id}>
                  {index + 1}. <Link className="text-accent hover:underline" to={viewerHref(source.document_id, { block: source.block_id, page: source.page })}>{sourceLabel(source)}</Link>
                </li>
              ))}
            </ol>
          </Panel>
        </>
      )}
      <ConfirmDialog open={confirm} onCancel={() => setConfirm(false)} title="Delete this guide?" confirmLabel="Delete guide"
        description="The guide goes; its sources stay in the library." busy={remove.isPending}
        onConfirm={() => remove.mutate(guideId, { onSuccess: () => navigate("/study", { replace: true }) })} />
    </PageShell>
  );
}
