/**
 * What leaves this machine, measured: settings that send data to another machine (flagged), and every
 * destination off this machine that Quire's processes connected to since they started, with counts.
 */
import { ShieldAlert, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/Badge";
import { formatRelative, plural } from "@/lib/format";
import type { VaultStats } from "../api/progress";

export function PrivacySection({ privacy }: { privacy: VaultStats["privacy"] }) {
  return (
    <section aria-labelledby="privacy-title" data-testid="privacy-panel">
      <h3 id="privacy-title" className="mb-1 flex items-center gap-1.5 text-xs font-medium tracking-wide text-ink-faint uppercase">
        {privacy.local_only ? <ShieldCheck size={13} /> : <ShieldAlert size={13} />}Connections beyond this machine
      </h3>
      {privacy.flags.map((flag) => (
        <p key={flag.setting} className="mb-1 rounded-lg bg-warn-soft p-2 text-[13px] text-warn" data-testid="privacy-flag">{flag.message}</p>
      ))}
      {privacy.destinations.length === 0 ? (
        <p className="text-[13px] text-ink-muted">
          None since Quire started {formatRelative(privacy.watching_since)}: its processes' own sockets are watched every five seconds.
        </p>
      ) : (
        <ul className="divide-y divide-line" data-testid="privacy-destinations">
          {privacy.destinations.map((d) => (
            <li key={d.address} className="flex items-center gap-3 py-1.5 text-[13px]">
              <code className="min-w-0 flex-1 truncate font-mono text-xs">{d.address}</code>
              <Badge>{plural(d.connections, "connection")}</Badge>
              <span className="shrink-0 text-xs text-ink-faint">last {formatRelative(d.last_seen)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
