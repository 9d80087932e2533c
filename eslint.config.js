// ESLint: typescript-eslint everywhere, type-aware rules on the product's code (promises that
// are never awaited are the bugs worth a type check here), React's hooks rules on the page, and
// Prettier's formatting left to Prettier. The dependency boundaries are dependency-cruiser's
// (.dependency-cruiser.cjs); `npm run lint` runs all three.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const productCode = [
  'core/**/*.ts',
  'frontend/**/*.{ts,tsx}',
  'lambdas/**/*.ts',
  'infra/**/*.ts',
  'local/**/*.ts',
  'ops/**/*.ts',
  'scripts/**/*.ts',
];

export default tseslint.config(
  { ignores: ['**/node_modules/', 'frontend/dist/', 'dist/', 'cdk.out/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: productCode,
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Intentional fire-and-forget calls are marked with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      // Handlers and SDK calls are async by contract even when a branch does not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
    languageOptions: { globals: globals.browser },
  },
  {
    files: [
      '**/*.{js,cjs,mjs}',
      'test/**/*.{ts,tsx}',
      'lambdas/**/*.ts',
      'infra/**/*.ts',
      'local/**/*.ts',
      'scripts/**/*.ts',
      'ops/**/*.ts',
      'frontend/build/**/*.ts',
      'frontend/vite.config.ts',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['test/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.jest, ...globals.browser } },
    rules: {
      // Tests read JSON replies and CloudFormation templates whose shapes they assert.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  prettier,
);
