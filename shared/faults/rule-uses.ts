/**
 * The one place a rule's uses are counted: the hub's board, a tap's rule set and a tap's
 * command-line retries all spend a use through `spendUse`.
 */

/** Spends one use of `rule`: the rule with one use fewer, or undefined when that was its last. */
export function spendUse<R extends { readonly count: number }>(rule: R): R | undefined {
  return rule.count > 1 ? { ...rule, count: rule.count - 1 } : undefined;
}
