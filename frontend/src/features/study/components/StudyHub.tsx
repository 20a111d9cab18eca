/**
 * The Study hub: make something new (quiz, flashcards, workshop, mind map), see what is being made,
 * review the cards that are due, and open anything made before.
 */
import { BookOpen } from "lucide-react";
import { Link } from "react-router";
import { useDocuments } from "@/api/vault";
import { ButtonLink } from "@/components/ButtonLink";
import { EmptyState } from "@/components/EmptyState";
import { SkeletonRows } from "@/components/Skeleton";
import { plural } from "@/lib/format";
import { useDecks } from "../api/decks";
import { useMindmaps } from "../api/mindmaps";
import { useQuizzes } from "../api/quizzes";
import { useWorkshops } from "../api/workshops";
import { useHubJobs } from "../hooks/pendingJobs";
import { withoutKindPrefix } from "../lib/titles";
import { DeckCard, MindmapCard, QuizCard, WorkshopCard } from "./HubCards";
import { GENERATOR_KINDS, KINDS } from "./kinds";
import { PendingJobs } from "./PendingJobs";
import { HubSection } from "./HubSection";
import { PageShell, StudyModelNotice } from "./StudyLayout";

function CreateTiles() {
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title" className="sr-only">Make something new</h2>
      <ul className="grid grid-cols-2 gap-3 xl:grid-cols-4">
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

export function StudyHub() {
  const documents = useDocuments();
  const quizzes = useQuizzes();
  const decks = useDecks();
  const workshops = useWorkshops();
  const mindmaps = useMindmaps();
  const pending = useHubJobs();
  const noDocuments = documents.isSuccess && documents.data.length === 0;
  const nothingYet = [quizzes, decks, workshops, mindmaps].every((q) => q.isSuccess && q.data.length === 0);

  return (
    <PageShell>
      <header>
        <h1 className="text-xl font-semibold tracking-tight">Study</h1>
        <p className="mt-0.5 text-sm text-ink-muted">
          Quizzes, flashcards, workshops and mind maps made from your own documents — each one shows the passages it came from.
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
          <PendingJobs jobs={pending} />
          <DueBanner />
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
          {[quizzes, decks, workshops, mindmaps].every((q) => q.isPending) && <SkeletonRows rows={6} label="Loading your study items" />}
        </>
      )}
    </PageShell>
  );
}
