/** Chat sessions: list, transcript, rename, delete. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchSessions, listKeys } from "@/api/lists";
import { apiJson, apiSend } from "@/lib/api";
import type { ChatSession, ChatSessionDetail } from "./types";

export const chatKeys = {
  sessions: listKeys.sessions,
  session: (id: string) => ["chat", "session", id] as const,
};

export function useSessions() {
  return useQuery({ queryKey: chatKeys.sessions, queryFn: fetchSessions });
}

export function useSession(id: string | undefined) {
  return useQuery({
    queryKey: chatKeys.session(id ?? ""),
    queryFn: () => apiJson<ChatSessionDetail>(`/api/chat/sessions/${encodeURIComponent(id ?? "")}`),
    enabled: Boolean(id),
  });
}

export function useRenameSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) =>
      apiSend<ChatSession>("PATCH", `/api/chat/sessions/${encodeURIComponent(id)}`, { title }),
    onSuccess: (session) => {
      queryClient.setQueryData<ChatSession[]>(chatKeys.sessions, (all) =>
        all?.map((item) => (item.id === session.id ? { ...item, ...session } : item)),
      );
      queryClient.setQueryData<ChatSessionDetail>(chatKeys.session(session.id), (detail) =>
        detail ? { ...detail, ...session } : detail,
      );
    },
  });
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", `/api/chat/sessions/${encodeURIComponent(id)}`),
    onSuccess: (_, id) => {
      queryClient.setQueryData<ChatSession[]>(chatKeys.sessions, (all) => all?.filter((item) => item.id !== id));
      queryClient.removeQueries({ queryKey: chatKeys.session(id) });
    },
  });
}
