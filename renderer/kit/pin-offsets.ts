/** Where a VirtualTable's pinned columns sit: the left offset of each, from the shown columns' widths. */

const pinCache = new Map<string, ReadonlyMap<string, number> | undefined>();

/**
 * The left offsets of the pinned columns among the shown ones (`layout`: `id:size …`): the leading
 * run of columns named in `pinned`, each at the sum of the widths before it; one object per layout.
 */
export function pinOffsets(
  layout: string,
  pinned: readonly string[] | undefined,
): ReadonlyMap<string, number> | undefined {
  if (!pinned || pinned.length === 0) return undefined;
  const key = `${pinned.join(",")}|${layout}`;
  if (pinCache.has(key)) return pinCache.get(key);
  const out = new Map<string, number>();
  let left = 0;
  for (const part of layout.split(" ")) {
    const at = part.lastIndexOf(":");
    const id = part.slice(0, at);
    if (!pinned.includes(id)) break;
    out.set(id, left);
    left += Number(part.slice(at + 1));
  }
  const pins = out.size > 0 ? out : undefined;
  if (pinCache.size > 50) pinCache.clear();
  pinCache.set(key, pins);
  return pins;
}
