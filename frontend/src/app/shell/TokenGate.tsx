/**
 * When the server answers 401 (it runs with QUIRE_API_TOKEN), ask for the token once, keep it in the
 * `quire_token` cookie and reload, so everything that failed is loaded again with it.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { KeyRound } from "lucide-react";
import { Button } from "@/components/Button";
import { TextInput } from "@/components/Input";
import { onUnauthorized } from "@/lib/api";
import { hasToken, saveToken } from "@/lib/auth";

export function TokenGate() {
  const [needed, setNeeded] = useState(false);
  // After a reload with a saved token, a 401 means that token was wrong.
  const [attempted] = useState(() => hasToken());
  const [token, setToken] = useState("");

  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => onUnauthorized(() => setNeeded(true)), []);
  // A modal <dialog> makes the rest of the page inert until the token is given.
  useEffect(() => {
    if (needed && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [needed]);

  if (!needed) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim()) return;
    saveToken(token);
    // Start over with the token: every screen reloads its data and re-attaches to running work.
    window.location.reload();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby="token-title"
      onCancel={(event) => event.preventDefault()}
      className="m-0 flex h-full max-h-none w-full max-w-none items-center justify-center bg-canvas/95 p-4 backdrop-blur-sm"
    >
      <form
        onSubmit={submit}
        aria-labelledby="token-title"
        className="w-full max-w-sm rounded-2xl border border-line bg-surface p-6 shadow-card"
      >
        <div className="mb-4 flex size-10 items-center justify-center rounded-xl bg-accent-soft text-accent-soft-ink">
          <KeyRound size={18} />
        </div>
        <h1 id="token-title" className="text-base font-semibold">This Quire needs its access token</h1>
        <p className="mt-1 text-sm text-ink-muted">
          The server was started with <code className="font-mono text-[13px]">QUIRE_API_TOKEN</code>. Enter that
          token; it stays in this browser.
        </p>
        {attempted && <p role="alert" className="mt-3 text-sm text-danger">That token was not accepted.</p>}
        <label htmlFor="api-token" className="mt-4 block text-sm font-medium">Token</label>
        <TextInput
          id="api-token"
          type="password"
          autoFocus
          autoComplete="current-password"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          className="mt-1.5 w-full"
        />
        <Button type="submit" variant="primary" className="mt-4 w-full" disabled={!token.trim()}>
          Unlock
        </Button>
      </form>
    </dialog>
  );
}
