/** The scheduled function recipe's handler: says it ran. */
export async function handler(): Promise<{ readonly alive: true }> {
  return { alive: true };
}
