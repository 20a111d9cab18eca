/**
 * The library's view of ingestion: live entries, and on mount re-attaching to every run that is still
 * going on the server (after a page reload or a server restart nothing is lost).
 */
import { useEffect, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { DocumentOut } from "@/api/types";
import { vaultKeys } from "@/api/vault";
import { fetchRecentRuns } from "../api/ingest";
import { refusalsKey } from "../api/refusals";
import { TERMINAL_RUN_STATUSES } from "../api/types";
import { ingestStore } from "./ingestStore";

let discovered = false;

export function useIngest(documents: DocumentOut[] | undefined) {
  const queryClient = useQueryClient();
  const entries = useSyncExternalStore(ingestStore.subscribe, ingestStore.getEntries);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    ingestStore.onDocumentsChanged = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: vaultKeys.documents });
        void queryClient.invalidateQueries({ queryKey: vaultKeys.categories });
        void queryClient.invalidateQueries({ queryKey: refusalsKey });
      }, 150);
    };
  }, [queryClient]);

  useEffect(() => {
    if (discovered) return;
    discovered = true;
    fetchRecentRuns()
      .then((runs) => runs.filter((run) => !TERMINAL_RUN_STATUSES.has(run.status))
        .forEach((run) => ingestStore.attach(run.workflow_id, run.source === "url" ? "Web page import" : "Upload")))
      .catch(() => {
        discovered = false; // try again on the next visit
      });
  }, []);

  // Documents still marked as ingesting point at their run: follow those too (covers runs older than
  // the recent list).
  useEffect(() => {
    documents
      ?.filter((doc) => (doc.status === "queued" || doc.status === "ingesting") && doc.last_workflow_id)
      .forEach((doc) => ingestStore.attach(doc.last_workflow_id as string, "Upload"));
  }, [documents]);

  return entries;
}
