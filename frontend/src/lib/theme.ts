/** Light/dark theme: "system" by default, a saved choice otherwise; applied as the `dark` class. */
export type ThemeChoice = "system" | "light" | "dark";
const KEY = "quire-theme";

export function savedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

export function systemPrefersDark(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
}

export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): "light" | "dark" {
  if (choice === "system") return prefersDark ? "dark" : "light";
  return choice;
}

export function applyTheme(choice: ThemeChoice): "light" | "dark" {
  const resolved = resolveTheme(choice, systemPrefersDark());
  document.documentElement.classList.toggle("dark", resolved === "dark");
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
  return resolved;
}
