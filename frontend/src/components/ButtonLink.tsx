/** A router link that looks like a button (for "Start", "Review", "Open the library" …). */
import { forwardRef, type ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import { buttonClassName, type ButtonVariant } from "./Button";

export const ButtonLink = forwardRef<HTMLAnchorElement, LinkProps & {
  variant?: ButtonVariant;
  size?: "sm" | "md";
  icon?: ReactNode;
}>(function ButtonLink({ variant = "secondary", size = "md", icon, className, children, ...rest }, ref) {
  return (
    <Link ref={ref} className={buttonClassName(variant, size, typeof className === "string" ? className : undefined)} {...rest}>
      {icon}
      {children}
    </Link>
  );
});
