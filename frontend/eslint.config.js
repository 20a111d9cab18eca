// ESLint flat config: TypeScript + React hooks rules, plus the architecture itself — no import cycles,
// and the layers import one way: app → features → components/api → lib. A feature never reaches into
// another feature; what two features share lives in components/, api/ or lib/.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Every folder of src/features is a feature, so a new one is held to the rule the day it is added.
const FEATURES = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const featureZones = FEATURES.map((feature) => ({
  target: `./src/features/${feature}`,
  from: "./src/features",
  except: [`./${feature}`],
  message: "Features don't import each other; move what they share to components/, api/ or lib/.",
}));

export default tseslint.config(
  { ignores: ["dist", "node_modules", "src/api/schema.d.ts"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: globals.browser },
    plugins: { "react-hooks": reactHooks, "import-x": importX },
    settings: {
      // Lets import-x parse TypeScript dependencies (no-cycle follows imports through them).
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.app.json" })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "import-x/no-cycle": ["error", { maxDepth: Infinity }],
      "import-x/no-self-import": "error",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...featureZones,
            { target: "./src/lib", from: ["./src/app", "./src/features", "./src/components", "./src/api"],
              message: "lib/ is the bottom layer: pure helpers with no UI or app knowledge." },
            { target: "./src/api", from: ["./src/app", "./src/features", "./src/components"],
              message: "The shared API layer must not depend on UI." },
            { target: "./src/components", from: ["./src/app", "./src/features"],
              message: "Shared components must not depend on a feature or the app shell." },
          ],
        },
      ],
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["../*/**/..", "../../*"], message: "Use the @/ alias for imports across folders." }] },
      ],
    },
  },
  {
    files: ["scripts/**/*.mjs", "*.config.{js,ts}", "eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
);
