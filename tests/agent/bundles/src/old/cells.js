// The work of one cell: a checksum over a few thousand values.
export function checksum(seed, rounds) {
  let h = seed | 0;
  for (let i = 0; i < rounds; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) + i;
    h ^= h >>> 13;
  }
  return h >>> 0;
}

export function formatCell(row, col) {
  const value = checksum(row * 31 + col, 20000);
  return col === 0 ? "#" + row : value.toString(16);
}
