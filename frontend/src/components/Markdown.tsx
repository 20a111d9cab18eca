/**
 * Markdown from models and documents, always sanitised: raw HTML is never rendered (react-markdown
 * escapes it and rehype-sanitize strips anything unsafe that survives), links open in a new tab
 * without referrer. Callers can override elements (the chat turns citation links into chips).
 */
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { cn } from "@/lib/cn";

const BASE_COMPONENTS: Components = {
  a: ({ href, children, ...rest }) => (
    <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
      {children}
    </a>
  ),
};

export const Markdown = memo(function Markdown({ children, components, className }: {
  children: string;
  components?: Components;
  className?: string;
}) {
  return (
    <div className={cn("prose-quire", className)}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize]}
        components={{ ...BASE_COMPONENTS, ...components }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
});
