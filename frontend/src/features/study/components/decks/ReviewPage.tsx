/**
 * A review session over the cards due now (a deck's, or an exam plan's for today): the front, then
 * (Space) the back with its sources, then a rating (1–4) whose button shows when the card would come
 * back. A cloze card shows its gaps, then fills them; a typed-answer card asks for the answer and says
 * whether it matched before the rating. Cards in a short learning step come back before the session ends.
 */
import { useEffect, useReducer, useRef, useState } from "react";
import { CheckCircle2, RotateCcw } from "lucide-react";
import { useParams } from "react-router";
import { Button } from "@/components/Button";
import { TextInput } from "@/components/Input";
import { ButtonLink } from "@/components/ButtonLink";
import { Kbd } from "@/components/Kbd";
import { Progress } from "@/components/Progress";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { useHotkey } from "@/hooks/useHotkey";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { isTypingTarget } from "@/lib/keys";
import { plural } from "@/lib/format";
import { useDeck, useDue, useReview } from "@/features/study/api/decks";
import type { Card, Rating } from "@/features/study/api/types";
import { typedMatches } from "@/lib/cards";
import { currentCard, RATINGS, ratingForKey, remaining, reviewReducer, startSession, type ReviewSession } from "@/features/study/lib/review";
import { SourceLinks } from "../SourceLinks";
import { PageShell, StudyHeader } from "../StudyLayout";

const RATING_STYLE: Record<Rating, string> = {
  again: "hover:border-danger/60 hover:bg-danger-soft [&_b]:text-danger",
  hard: "hover:border-warn/60 hover:bg-warn-soft [&_b]:text-warn",
  good: "hover:border-accent/60 hover:bg-accent-soft [&_b]:text-accent",
  easy: "hover:border-ok/60 hover:bg-ok-soft [&_b]:text-ok",
};

function ClozeText({ card, revealed }: { card: Card; revealed: boolean }) {
  return (
    <>
      {(card.segments ?? []).map((segment, index) => segment.hidden ? (
        revealed
          ? <mark key={index} className="rounded bg-accent-soft px-1 font-semibold text-accent-soft-ink" data-testid="cloze-answer">{segment.text}</mark>
          : <span key={index} className="rounded bg-surface-2 px-1.5 font-semibold text-ink-muted" data-testid="cloze-gap">[{segment.hint ?? "…"}]</span>
      ) : <span key={index}>{segment.text}</span>)}
    </>
  );
}

function TypedAnswer({ card, typed, setTyped, flipped, onFlip }: {
  card: Card; typed: string; setTyped: (value: string) => void; flipped: boolean; onFlip: () => void;
}) {
  if (!flipped) {
    return (
      <form className="flex gap-2 border-t border-line p-3" onSubmit={(event) => {
        event.preventDefault();
        onFlip();
      }}>
        <TextInput value={typed} onChange={(event) => setTyped(event.target.value)} autoFocus aria-label="Your answer" placeholder="Type the answer" className="min-w-0 flex-1" />
        <Button type="submit" variant="primary">Check <span className="ml-1 hidden sm:inline-flex"><Kbd>Enter</Kbd></span></Button>
      </form>
    );
  }
  const right = typedMatches(typed, card.back);
  return (
    <p role="status" data-testid="typed-verdict" data-correct={right}
      className={cn("mx-auto mt-3 max-w-md rounded-lg px-3 py-2 text-sm", right ? "bg-ok-soft text-ok" : "bg-danger-soft text-danger")}>
      {right ? "You typed it right." : typed.trim() ? <>You typed <b className="break-words">{typed}</b>.</> : "You left it blank."}
    </p>
  );
}

function Flashcard({ card, flipped, onFlip }: { card: Card; flipped: boolean; onFlip: () => void }) {
  const [typed, setTyped] = useState("");
  const cloze = card.kind === "cloze" && card.segments;
  return (
    <div className="rounded-2xl border border-line bg-surface shadow-card" data-testid="flashcard" data-flipped={flipped} data-kind={card.kind}>
      <div className="flex min-h-44 flex-col items-center justify-center px-5 py-8 text-center sm:min-h-52 sm:px-10">
        <p className="text-xs font-medium tracking-wide text-ink-faint uppercase">{cloze ? "Fill the gap" : "Question"}</p>
        <p className="mt-2 text-lg leading-snug font-medium break-words whitespace-pre-wrap sm:text-xl" data-testid="card-front">
          {cloze ? <ClozeText card={card} revealed={flipped} /> : card.front}
        </p>
      </div>
      {card.kind === "typed" && <TypedAnswer card={card} typed={typed} setTyped={setTyped} flipped={flipped} onFlip={onFlip} />}
      {flipped ? (
        <div className="border-t border-dashed border-line-strong px-5 py-6 text-center sm:px-10" data-testid="card-back">
          {!cloze && <p className="text-xs font-medium tracking-wide text-ink-faint uppercase">Answer</p>}
          {(!cloze || card.back) && <p className="mt-2 text-base leading-relaxed break-words whitespace-pre-wrap">{card.back}</p>}
          {card.sources.length > 0 && <SourceLinks sources={card.sources} className="mt-4 justify-center" />}
        </div>
      ) : card.kind !== "typed" && (
        <div className="border-t border-line p-3">
          <Button className="w-full" onClick={onFlip} autoFocus>
            Show answer <span className="ml-1 hidden sm:inline-flex"><Kbd>Space</Kbd></span>
          </Button>
        </div>
      )}
    </div>
  );
}

export function Session({ cards, back }: { cards: Card[]; back: { to: string; label: string } }) {
  const [state, dispatch] = useReducer(reviewReducer, cards, startSession);
  const review = useReview();
  const toast = useToast();
  const card = currentCard(state);

  const rate = (rating: Rating) => {
    if (!card || !state.flipped || review.isPending) return;
    review.mutate({ deckId: card.deck_id, cardId: card.id, rating }, {
      onSuccess: (result) => dispatch({ type: "rated", review: result }),
      onError: (error) => toast({ tone: "error", title: "The rating wasn't saved", body: errorMessage(error) }),
    });
  };
  const rateRef = useRef(rate);
  useEffect(() => {
    rateRef.current = rate;
  });

  useHotkey(" ", () => !state.flipped && dispatch({ type: "flip" }), { enabled: Boolean(card) });
  useHotkey("enter", () => !state.flipped && dispatch({ type: "flip" }), { enabled: Boolean(card) });
  useEffect(() => {
    if (!card || !state.flipped) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      const rating = ratingForKey(event.key);
      if (!rating) return;
      event.preventDefault();
      rateRef.current(rating);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [card, state.flipped]);

  if (!card) return <Done state={state} back={back} />;
  const total = state.queue.length;
  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <div className="flex items-center gap-3 text-[13px] text-ink-muted">
        <Progress value={state.position / total} label={`${state.position} of ${total} reviewed`} />
        <span className="shrink-0 tabular-nums" data-testid="review-remaining">{plural(remaining(state), "card")} left</span>
      </div>
      <Flashcard key={`${card.id}-${state.position}`} card={card} flipped={state.flipped} onFlip={() => dispatch({ type: "flip" })} />
      {state.flipped && (
        <div>
          <p className="mb-2 text-center text-[13px] text-ink-muted">How well did you remember it?</p>
          <div role="group" aria-label="Rate your recall" className="grid grid-cols-4 gap-1.5 sm:gap-2">
            {RATINGS.map(({ rating, key, label }) => (
              <button
                key={rating}
                type="button"
                disabled={review.isPending}
                onClick={() => rate(rating)}
                aria-label={`${label} — next review in ${card.intervals[rating]?.label ?? "?"} (key ${key})`}
                className={cn("flex flex-col items-center rounded-xl border border-line-strong bg-surface px-1 py-2.5 transition-colors disabled:opacity-50 sm:px-3", RATING_STYLE[rating])}
              >
                <b className="text-sm font-semibold">{label}</b>
                <span className="text-xs text-ink-muted tabular-nums">{card.intervals[rating]?.label ?? "—"}</span>
                <span className="mt-1 hidden sm:block"><Kbd>{key}</Kbd></span>
              </button>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

function Done({ state, back }: { state: ReviewSession; back: { to: string; label: string } }) {
  const { tally } = state;
  return (
    <div className="mx-auto max-w-lg rounded-2xl border border-line bg-surface px-6 py-10 text-center shadow-card" data-testid="review-done">
      <CheckCircle2 size={32} className="mx-auto text-ok" />
      <h2 className="mt-3 text-lg font-semibold">{state.reviewed ? "Session complete" : "Nothing is due right now"}</h2>
      <p className="mt-1 text-sm text-ink-muted">
        {state.reviewed
          ? `${plural(state.reviewed, "review")}: again ${tally.again} · hard ${tally.hard} · good ${tally.good} · easy ${tally.easy}. Each card comes back when it's about to be forgotten.`
          : "Every card here is scheduled for later. Come back when some are due."}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <ButtonLink to={back.to} variant="primary">{back.label}</ButtonLink>
        <ButtonLink to="/study" icon={<RotateCcw size={15} />}>Study hub</ButtonLink>
      </div>
    </div>
  );
}

export function ReviewPage() {
  const { deckId = "" } = useParams();
  const deck = useDeck(deckId);
  const due = useDue(deckId);
  return (
    <PageShell>
      <StudyHeader back={{ to: `/study/decks/${deckId}`, label: deck.data?.title ?? "Deck" }} title="Review" />
      {due.isPending && <SkeletonRows rows={5} label="Loading the cards due" />}
      {due.isError && <p role="alert" className="text-sm text-danger">The cards couldn't be loaded: {errorMessage(due.error)}</p>}
      {due.data && <Session key={due.dataUpdatedAt} cards={due.data.cards} back={{ to: `/study/decks/${deckId}`, label: "Back to the deck" }} />}
    </PageShell>
  );
}
