/** The Chat screen: conversations on the left, the conversation, the composer, and the source pane. */
import { useCallback, useEffect, useRef, useState } from "react";
import { BookOpen, MessagesSquare, PanelLeft, Sparkles } from "lucide-react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { useDocuments } from "@/api/vault";
import { IconButton } from "@/components/Button";
import { ButtonLink } from "@/components/ButtonLink";
import { EmptyState } from "@/components/EmptyState";
import { ModelNotice } from "@/components/ModelNotice";
import { EMPTY_SCOPE, scopeIsEmpty, type Scope } from "@/components/ScopePicker";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { useHotkey } from "@/hooks/useHotkey";
import { errorMessage } from "@/lib/api";
import type { Citation } from "../api/types";
import { useChat } from "../hooks/useChat";
import type { ChatTurn } from "../lib/turns";
import { Composer, type ComposerHandle } from "./Composer";
import { SessionList } from "./SessionList";
import { SourceViewer } from "./SourceViewer";
import { TurnView } from "./TurnView";

const SUGGESTIONS = [
  "Summarise the main ideas across my documents",
  "What are the key terms and definitions I should know?",
  "Which topics are most likely to come up in an exam?",
];

function toRequestScope(scope: Scope) {
  return scopeIsEmpty(scope) ? undefined : { document_ids: scope.document_ids, categories: scope.categories };
}

function Welcome({ hasDocuments, onPick }: { hasDocuments: boolean; onPick: (text: string) => void }) {
  if (!hasDocuments) {
    return (
      <EmptyState icon={<BookOpen size={20} />} title="Add documents to chat with them" className="py-16"
        actions={<ButtonLink to="/library" variant="primary">Open the library</ButtonLink>}>
        Answers here come from your own files, with a numbered source for every claim. Your library is empty so far.
      </EmptyState>
    );
  }
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
      <div className="mb-4 flex size-11 items-center justify-center rounded-xl bg-accent-soft text-accent-soft-ink">
        <Sparkles size={20} />
      </div>
      <h2 className="text-lg font-semibold">Ask your library</h2>
      <p className="mt-1 text-sm text-ink-muted">
        Answers cite the passages they come from — click a number to read the source. Narrow the sources
        with the picker below the message box.
      </p>
      <div className="mt-6 flex w-full flex-col gap-2">
        {SUGGESTIONS.map((text) => (
          <button key={text} type="button" onClick={() => onPick(text)}
            className="rounded-xl border border-line bg-surface px-4 py-2.5 text-left text-sm text-ink-muted transition-colors hover:border-accent/50 hover:text-ink">
            {text}
          </button>
        ))}
      </div>
    </div>
  );
}

export function ChatPage() {
  const { sessionId } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const documents = useDocuments();
  const [params, setParams] = useSearchParams();
  const [scope, setScope] = useState<Scope>(() => {
    const doc = params.get("ask") !== null ? params.get("doc") : null;
    return doc ? { document_ids: [doc], categories: [] } : EMPTY_SCOPE;
  });
  const [source, setSource] = useState<Citation | null>(null);
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const composer = useRef<ComposerHandle>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const onSessionStarted = useCallback((id: string) => navigate(`/chat/${id}`, { replace: true }), [navigate]);
  const { session, turns, send, stop, streaming, memory } = useChat(sessionId, onSessionStarted);

  // Opening a stored conversation restores the sources it was scoped to (adjusted during render, once
  // per conversation, as React recommends over an effect).
  const [scopeOf, setScopeOf] = useState<string | undefined>();
  if (session.data && scopeOf !== session.data.id) {
    const loaded = session.data.scope as Partial<Scope>;
    setScopeOf(session.data.id);
    setScope({ document_ids: loaded.document_ids ?? [], categories: loaded.categories ?? [] });
    setSource(null);
  }

  // "Ask in chat" from a search result: `/chat?ask=…` types the question in (the scope came from `doc`).
  const askParam = params.get("ask");
  useEffect(() => {
    if (!askParam) return;
    composer.current?.setText(askParam);
    setParams({}, { replace: true });
  }, [askParam, setParams]);

  // Follow the answer as it streams, unless the reader scrolled up to read something.
  const lastTurn = turns[turns.length - 1];
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const nearBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 160;
    if (nearBottom || streaming) bottom.current?.scrollIntoView({ block: "end" });
  }, [lastTurn, streaming]);

  useHotkey("escape", stop, { whileTyping: true, enabled: streaming });
  const closeSource = useCallback(() => setSource(null), []);

  // "Continue" after an answer was cut off (a crash, a lost database): a follow-up in the same session; the
  // model reads the cut-off answer in the history and picks up from it.
  const CONTINUE_MESSAGE = "Continue your previous answer from where it stopped.";
  const ask = async (text: string, files: File[], rewind?: ChatTurn, reuseAttachments = false) => {
    setSource(null);
    const result = await send(text, { files, scope: toRequestScope(scope), rewind, reuseAttachments });
    if (!result.ok) {
      if (!rewind) composer.current?.restore(text, files);
      toast({ tone: "error", title: "The question wasn't sent", body: result.error });
    }
  };

  const title = sessionId ? (session.data?.title ?? "") : "New chat";

  return (
    <div className="flex h-full min-h-0">
      <aside aria-label="Conversations" className="hidden w-64 shrink-0 border-r border-line bg-surface/60 lg:flex">
        <SessionList activeId={sessionId} />
      </aside>
      {sessionsOpen && (
        <div className="fixed inset-0 z-40 lg:hidden">
          <div className="absolute inset-0 bg-black/40" aria-hidden="true" onClick={() => setSessionsOpen(false)} />
          <div className="absolute inset-y-0 left-0 flex w-72 max-w-[85%] bg-surface shadow-card">
            <SessionList activeId={sessionId} onNavigate={() => setSessionsOpen(false)} />
          </div>
        </div>
      )}

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-13 shrink-0 items-center gap-2 border-b border-line px-3 sm:px-4">
          <IconButton label="Conversations" className="lg:hidden" onClick={() => setSessionsOpen(true)}>
            <PanelLeft size={18} />
          </IconButton>
          <MessagesSquare size={16} className="hidden shrink-0 text-ink-faint lg:block" />
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</h1>
        </header>

        <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto w-full max-w-3xl space-y-8 px-4 py-6 sm:px-6">
            <ModelNotice consequence="answers can't be written"
              stillWorks="You can still ask: Quire will show the passages from your documents that match." />
            {sessionId && session.isPending && <SkeletonRows rows={5} label="Loading the conversation" />}
            {sessionId && session.isError && (
              <p role="alert" className="text-sm text-danger">This conversation couldn't be opened: {errorMessage(session.error)}</p>
            )}
            {!sessionId && turns.length === 0 && (
              <Welcome hasDocuments={(documents.data?.length ?? 1) > 0} onPick={(text) => composer.current?.setText(text)} />
            )}
            {turns.map((turn) => (
              <TurnView
                key={turn.key}
                turn={turn}
                busy={streaming}
                onCite={setSource}
                onEdit={(target, text, keepAttachments) => void ask(text, [], target, keepAttachments)}
                onRegenerate={(target) => void ask(target.question, [], target, true)}
                sessionId={sessionId}
                onContinue={() => void ask(CONTINUE_MESSAGE, [])}
              />
            ))}
            <div ref={bottom} />
          </div>
        </div>

        <Composer
          ref={composer}
          streaming={streaming}
          onSend={(text, files) => void ask(text, files)}
          onStop={stop}
          scope={scope}
          onScopeChange={setScope}
          memory={memory}
        />
      </div>

      <SourceViewer key={source?.block_id} citation={source} onClose={closeSource} />
    </div>
  );
}
