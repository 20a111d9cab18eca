/**
 * Making something new: pick the sources and the settings, then generate. The request carries a token
 * kept for this form, so a double click (or a retry of the same request) never starts a second job;
 * the job is remembered in this browser and its progress page has the job id in its URL.
 */
import { useMemo, useState, type ReactNode } from "react";
import { BookOpen, Sparkles } from "lucide-react";
import { Navigate, useNavigate, useParams } from "react-router";
import { pickableDocuments, useDocuments } from "@/api/vault";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { CodeText } from "@/components/CodeText";
import { EmptyState } from "@/components/EmptyState";
import { describeScope, EMPTY_SCOPE, ScopePicker, scopeIsEmpty, type Scope } from "@/components/ScopePicker";
import { ApiError, errorMessage } from "@/lib/api";
import { startGeneration } from "../api/jobs";
import type { Difficulty, GeneratorKind, GeneratorParams, GuideType, QuestionType } from "../api/types";
import { pendingJobs } from "../hooks/pendingJobs";
import { newClientToken } from "../lib/jobs";
import { QUESTION_TYPE_LABEL } from "../lib/quiz";
import { isGeneratorKind, KINDS } from "./kinds";
import { ChoiceChips, Segmented } from "./Segmented";
import { PageShell, StudyHeader, StudyModelNotice } from "./StudyLayout";

const DIFFICULTIES: Array<{ value: Difficulty; label: string; hint: string }> = [
  { value: "beginner", label: "Beginner", hint: "Recall of the key facts and terms" },
  { value: "intermediate", label: "Intermediate", hint: "Understanding and connecting ideas" },
  { value: "advanced", label: "Advanced", hint: "Applying and reasoning about the material" },
];

const GUIDE_TYPES: Array<{ value: GuideType; label: string; hint: string }> = [
  { value: "briefing", label: "Briefing", hint: "The key points, grouped under a few headings." },
  { value: "faq", label: "FAQ", hint: "The questions a student would ask, answered." },
  { value: "glossary", label: "Glossary", hint: "The key terms and what they mean here." },
  { value: "timeline", label: "Timeline", hint: "Dated events or the steps of a process, in order." },
];

interface Settings {
  difficulty: Difficulty;
  guideType: GuideType;
  quizCount: 5 | 10 | 20;
  types: QuestionType[];
  deckCount: 10 | 20 | 40;
  lessons: number;
  depth: 2 | 3;
}

const DEFAULTS: Settings = { difficulty: "intermediate", guideType: "briefing", quizCount: 10, types: ["mcq", "true_false"], deckCount: 20, lessons: 5, depth: 2 };

function paramsFor(kind: GeneratorKind, scope: Scope, s: Settings): GeneratorParams {
  const base = { scope: { document_ids: scope.document_ids, categories: scope.categories } };
  switch (kind) {
    case "quiz":
      return { ...base, difficulty: s.difficulty, count: s.quizCount, types: s.types };
    case "deck":
      return { ...base, count: s.deckCount };
    case "workshop":
      return { ...base, difficulty: s.difficulty, lessons: s.lessons };
    case "mindmap":
      return { ...base, depth: s.depth };
    case "guide":
      return { ...base, guide_type: s.guideType };
    case "audio_overview":
      return base;
  }
}

function Field({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-1.5 sm:grid-cols-[10rem_1fr] sm:items-start sm:gap-4">
      <p className="pt-1.5 text-sm font-medium">{label}</p>
      <div className="min-w-0 space-y-1.5">
        {children}
        {hint && <p className="text-xs text-ink-faint">{hint}</p>}
      </div>
    </div>
  );
}

function KindSettings({ kind, settings, set }: { kind: GeneratorKind; settings: Settings; set: (patch: Partial<Settings>) => void }) {
  const difficulty = (
    <Field label="Difficulty" hint={DIFFICULTIES.find((d) => d.value === settings.difficulty)?.hint}>
      <Segmented label="Difficulty" value={settings.difficulty} options={DIFFICULTIES} onChange={(difficulty) => set({ difficulty })} />
    </Field>
  );
  switch (kind) {
    case "quiz":
      return (
        <>
          {difficulty}
          <Field label="Questions">
            <Segmented label="Number of questions" value={settings.quizCount}
              options={[5, 10, 20].map((value) => ({ value: value as 5 | 10 | 20, label: String(value) }))}
              onChange={(quizCount) => set({ quizCount })} />
          </Field>
          <Field label="Question types" hint={settings.types.length === 0 ? "Pick at least one type." : undefined}>
            <ChoiceChips label="Question types" values={settings.types}
              options={(["mcq", "true_false"] as const).map((value) => ({ value, label: QUESTION_TYPE_LABEL[value] }))}
              onChange={(types) => set({ types })} />
          </Field>
        </>
      );
    case "deck":
      return (
        <Field label="Cards" hint="You can edit any card and add your own afterwards.">
          <Segmented label="Number of cards" value={settings.deckCount}
            options={[10, 20, 40].map((value) => ({ value: value as 10 | 20 | 40, label: String(value) }))}
            onChange={(deckCount) => set({ deckCount })} />
        </Field>
      );
    case "workshop":
      return (
        <>
          {difficulty}
          <Field label="Lessons" hint="Each lesson is written the first time you open it.">
            <Segmented label="Number of lessons" size="sm" value={settings.lessons}
              options={[3, 4, 5, 6, 7, 8, 9, 10].map((value) => ({ value, label: String(value) }))}
              onChange={(lessons) => set({ lessons })} />
          </Field>
        </>
      );
    case "mindmap":
      return (
        <Field label="Depth" hint={settings.depth === 2 ? "Topics and their subtopics." : "Topics, subtopics and the details under them."}>
          <Segmented label="Depth" value={settings.depth}
            options={[{ value: 2 as const, label: "2 levels" }, { value: 3 as const, label: "3 levels" }]}
            onChange={(depth) => set({ depth })} />
        </Field>
      );
    case "guide":
      return (
        <Field label="Kind of guide" hint={GUIDE_TYPES.find((g) => g.value === settings.guideType)?.hint}>
          <Segmented label="Kind of guide" value={settings.guideType} options={GUIDE_TYPES}
            onChange={(guideType) => set({ guideType })} />
        </Field>
      );
    case "audio_overview":
      return (
        <p className="text-xs text-ink-faint">
          English sources are read by Piper's natural "Joe" voice and the same voice lowered; German sources by espeak-ng, a robotic voice (no natural German voice can be installed).
        </p>
      );
  }
}

export function NewItemPage() {
  const { kind } = useParams();
  if (!isGeneratorKind(kind)) return <Navigate to="/study" replace />;
  return <NewItemForm key={kind} kind={kind} />;
}

function NewItemForm({ kind }: { kind: GeneratorKind }) {
  const info = KINDS[kind];
  const navigate = useNavigate();
  const documents = useDocuments();
  const [scope, setScope] = useState<Scope>(EMPTY_SCOPE);
  const [settings, setSettings] = useState<Settings>(DEFAULTS);
  // One token for this form: clicking twice (or again after a failure) asks for the same job.
  const [token] = useState(newClientToken);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const names = useMemo(() => new Map((documents.data ?? []).map((doc) => [doc.id, doc.filename])), [documents.data]);
  const ready = pickableDocuments(documents.data).filter((doc) => doc.status === "ready" || doc.blocks > 0);
  const invalid = kind === "quiz" && settings.types.length === 0;

  const submit = async () => {
    if (busy || invalid) return;
    setBusy(true);
    setError(null);
    const params = paramsFor(kind, scope, settings);
    try {
      const job = await startGeneration(kind, params, token);
      pendingJobs.add({ job_id: job.job_id, kind: job.kind, generator: kind, params, label: scopeIsEmpty(scope) ? "all your documents" : describeScope(scope, names), started_at: Date.now() });
      navigate(`/study/jobs/${encodeURIComponent(job.job_id)}`);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  if (documents.isSuccess && ready.length === 0) {
    return (
      <PageShell narrow>
        <StudyHeader back={{ to: "/study", label: "Study" }} title={`New ${info.noun}`} />
        <EmptyState icon={<BookOpen size={20} />} title="Add documents in the Library first"
          actions={<ButtonLink to="/library" variant="primary">Open the library</ButtonLink>}>
          A {info.noun} is made from your own material. Once a document is ready in the library, come back here.
        </EmptyState>
      </PageShell>
    );
  }

  return (
    <PageShell narrow>
      <StudyHeader back={{ to: "/study", label: "Study" }} title={`New ${info.noun}`} subtitle={info.blurb} />
      <StudyModelNotice />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="space-y-5 rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-6"
        aria-label={`New ${info.noun}`}
      >
        <Field label="Sources" hint={scopeIsEmpty(scope) ? `Leave it as is to draw on every document in your library.` : `Only passages from ${describeScope(scope, names)}.`}>
          <ScopePicker value={scope} onChange={setScope} side="bottom" />
        </Field>
        <KindSettings kind={kind} settings={settings} set={(patch) => setSettings((current) => ({ ...current, ...patch }))} />
        {error !== null && (
          <div role="alert" className="rounded-xl border border-danger/30 bg-danger-soft px-4 py-3 text-[13px] text-ink">
            <p className="font-medium text-danger">
              {error instanceof ApiError && error.code === "model_unavailable" ? "No model to write it with" : "It couldn't be started"}
            </p>
            <p className="mt-0.5 text-ink-muted"><CodeText text={errorMessage(error)} /></p>
          </div>
        )}
        <div className="flex flex-col-reverse gap-2 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-ink-faint">Runs on this machine; you can leave the page while it works.</p>
          <Button type="submit" variant="primary" icon={<Sparkles size={15} />} loading={busy} disabled={invalid}>
            Generate {info.noun}
          </Button>
        </div>
      </form>
    </PageShell>
  );
}
