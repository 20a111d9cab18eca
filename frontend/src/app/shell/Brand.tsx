import { Link } from "react-router";

export function Brand() {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-md px-1 py-0.5 font-semibold tracking-tight text-ink">
      <img src="/favicon.svg" alt="" className="size-6" />
      <span className="text-[15px]">Quire</span>
    </Link>
  );
}
