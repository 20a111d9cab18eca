/** One kind of study item on the hub: a heading with the count, then its cards (or nothing, when empty). */
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Button } from "@/components/Button";
import { errorMessage } from "@/lib/api";

export function HubSection<T>({ title, query, children }: {
  title: string;
  query: UseQueryResult<T[]>;
  children: (items: T[]) => ReactNode;
}) {
  const id = `hub-${title.toLowerCase().replace(/\s+/g, "-")}`;
  if (query.isError) {
    return (
      <section aria-labelledby={id}>
        <h2 id={id} className="mb-2 text-sm font-semibold">{title}</h2>
        <div role="alert" className="flex items-center justify-between gap-3 rounded-xl border border-line bg-surface p-3 text-sm text-danger">
          <span>Couldn't load these: {errorMessage(query.error)}</span>
          <Button size="sm" onClick={() => void query.refetch()}>Try again</Button>
        </div>
      </section>
    );
  }
  if (!query.data?.length) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2.5 flex items-baseline gap-2 text-sm font-semibold">
        {title}
        <span className="text-xs font-normal text-ink-faint">{query.data.length}</span>
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">{children(query.data)}</ul>
    </section>
  );
}
