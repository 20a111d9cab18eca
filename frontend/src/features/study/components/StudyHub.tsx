/**
 * The Study hub: make something new (quiz, flashcards, workshop, mind map, study guide), practise weak
 * spots, plan toward an exam, see what is being made and which items' sources changed, review the cards
 * that are due, and open anything made before.
 */
import { useState } from "react";
import { BookOpen, CalendarPlus, Crosshair } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { useDocuments } from "@/api/vault";
import { Button } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { EmptyState } from "@/components/EmptyState";
import { SkeletonRows } from "@/components/Skeleton";
import { plural } from "@/lib/format";
import { useDecks } from "../api/decks";
import { useGuides } from "../api/guides";
import { useOverviews } from "../api/overviews";
import { startWeakSpots, useWeakSpots } from "../api/loop";
import { usePlans } from "../api/plans";
import { useMindmaps } from "../api/mindmaps";
import { useQuizzes } from "../api/quizzes";
import { useWorkshops } from "../api/workshops";
import { useHubJobs } from "../hooks/pendingJobs";
import { newClientToken } from "../lib/jobs";
import { withoutKindPrefix } from "../lib/titles";
import { pendingJobs } from "../hooks/pendingJobs";
import { DeckCard, GuideCard, MindmapCard, OverviewCard, PlanCard, QuizCard, WorkshopCard } from "./HubCards";
import { SourceChanges } from "./SourceChanges";
import { GENERATOR_KINDS, KINDS } from "./kinds";
import { PendingJobs } from "./PendingJobs";
import { HubSection } from "./HubSection";
import { PageShell, StudyModelNotice } from "./StudyLayout";

function CreateTiles() {
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title" className="sr-only">Make something new</h2>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        {GENERATOR_KINDS.map((kind) => {
          const info = KINDS[kind];
          return (
            <li key={kind}>
              <Link
                to={`/study/new/${kind}`}
                className="group flex h-full flex-col gap-2 rounded-2xl border border-line bg-surface p-3 shadow-card transition-colors hover:border-accent/50 sm:flex-row sm:gap-3 sm:p-4"
              >
                <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-accent-soft-ink">
                  <info.icon size={19} />
                </span>
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-ink group-hover:text-accent">New {info.noun}</span>
                  <span className="mt-0.5 hidden text-[13px] leading-snug text-ink-muted sm:block">{info.blurb}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function DueBanner() {
  const decks = useDecks();
  const due = (decks.data ?? []).filter((deck) => deck.due_count > 0);
  const total = due.reduce((sum, deck) => sum + deck.due_count, 0);
  if (!total) return null;
  const first = due[0];
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-accent/30 bg-accent-soft px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="due-banner">
      <p className="text-sm text-accent-soft-ink">
        <span className="font-semibold">{plural(total, "card")} due for review</span>
        {due.length > 1 ? ` across ${plural(due.length, "deck")}` : first ? ` in ${withoutKindPrefix(first.title, "Deck")}` : ""} — a few minutes now keeps them in memory.
      </p>
      {first && (
        <ButtonLink to={`/study/decks/${first.id}/review`} variant="primary" size="sm">
          {due.length > 1 ? `Review ${withoutKindPrefix(first.title, "Deck")}` : "Review now"}
        </ButtonLink>
      )}
    </div>
  );
}

/** The loop's two starting points: practise what went wrong, and plan toward an exam. */
function LoopActions() {
  const weak = useWeakSpots();
  const navigate = useNavigate();
  const toast = useToast();
  const [token] = useState(newClientToken);
  const [busy, setBusy] = useState(false);
  const passages = weak.data?.passages ?? 0;
  const practise = async () => {
    setBusy(true);
    try {
      const job = await startWeakSpots(token);
      pendingJobs.add({ job_id: job.job_id, kind: job.kind, label: "your weak spots", started_at: Date.now() });
      navigate(`/study/jobs/${encodeURIComponent(job.job_id)}`);
    } catch (error) {
      toast({ tone: "error", title: "The quiz couldn't be started", body: errorMessage(error) });
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button icon={<Crosshair size={15} />} onClick={() => void practise()} loading={busy} disabled={!passages}
        title={passages ? undefined : "Nothing to practise: no recent mistakes or forgotten cards"}>
        Practise my weak spots{passages ? ` (${plural(passages, "passage")})` : ""}
      </Button>
      <ButtonLink to="/study/plans/new" icon={<CalendarPlus size={15} />}>New exam plan</ButtonLink>
    </div>
  );
}

export function StudyHub() {
  const documents = useDocuments();
  const quizzes = useQuizzes();
  const decks = useDecks();
  const workshops = useWorkshops();
  const mindmaps = useMindmaps();
  const plans = usePlans();
  const guides = useGuides();
  const overviews = useOverviews();
  const pending = useHubJobs();
  const noDocuments = documents.isSuccess && documents.data.length === 0;
  const nothingYet = [quizzes, decks, workshops, mindmaps, guides, overviews].every((q) => q.isSuccess && q.data.length === 0);

  return (
    <PageShell>
      <header>
        <h1 className="text-xl font-semibold tracking-tight">Study</h1>
        <p className="mt-0.5 text-sm text-ink-muted">
          Quizzes, flashcards, workshops, mind maps, study guides and audio overviews made from your own documents — each one shows the passages it came from. Mistakes become cards; an exam plan tells you what to study each day.
        </p>
      </header>
      <StudyModelNotice />

      {noDocuments && nothingYet ? (
        <EmptyState icon={<BookOpen size={20} />} title="Add documents in the Library first" className="py-16"
          actions={<ButtonLink to="/library" variant="primary">Open the library</ButtonLink>}>
          Everything here is made from your own material: lecture notes, papers, slides. Add a few files to the
          library, and once they're ready, come back to turn them into a quiz, a flashcard deck, a workshop or a mind map.
        </EmptyState>
      ) : (
        <>
          <CreateTiles />
          <LoopActions />
          <PendingJobs jobs={pending} />
          <DueBanner />
          <SourceChanges />
          <HubSection title="Exam plans" query={plans}>
            {(items) => items.map((plan) => <PlanCard key={plan.id} plan={plan} />)}
          </HubSection>
          {nothingYet && pending.length === 0 && (
            <p className="rounded-2xl border border-dashed border-line-strong px-4 py-6 text-center text-sm text-ink-muted">
              Nothing made yet. Start with a quiz — ten questions take about a minute to write on a local model.
            </p>
          )}
          <HubSection title="Quizzes" query={quizzes}>
            {(items) => items.map((quiz) => <QuizCard key={quiz.id} quiz={quiz} />)}
          </HubSection>
          <HubSection title="Flashcards" query={decks}>
            {(items) => items.map((deck) => <DeckCard key={deck.id} deck={deck} />)}
          </HubSection>
          <HubSection title="Workshops" query={workshops}>
            {(items) => items.map((workshop) => <WorkshopCard key={workshop.id} workshop={workshop} />)}
          </HubSection>
          <HubSection title="Mind maps" query={mindmaps}>
            {(items) => items.map((map) => <MindmapCard key={map.id} mindmap={map} />)}
          </HubSection>
          <HubSection title="Study guides" query={guides}>
            {(items) => items.map((guide) => <GuideCard key={guide.id} guide={guide} />)}
          </HubSection>
          <HubSection title="Audio overviews" query={overviews}>
            {(items) => items.map((overview) => <OverviewCard key={overview.id} overview={overview} />)}
          </HubSection>
          {[quizzes, decks, workshops, mindmaps].every((q) => q.isPending) && <SkeletonRows rows={6} label="Loading your study items" />}
        </>
      )}
    </PageShell>
  );
}
