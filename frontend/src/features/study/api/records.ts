/** What the study records the hub lists (decks, quizzes, workshops, mind maps) share on the client. */
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "@/lib/api";

/** Delete one record: it leaves its list's cache at once and its own cached query is dropped. */
export function useDeleteRecord<Summary extends { id: string }>(
  url: (id: string) => string,
  listKey: QueryKey,
  recordKey: (id: string) => QueryKey,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", url(id)),
    onSuccess: (_, id) => {
      queryClient.setQueryData<Summary[]>(listKey, (all) => all?.filter((record) => record.id !== id));
      queryClient.removeQueries({ queryKey: recordKey(id) });
    },
  });
}
