/** An ILIKE pattern matching any text that contains `text` literally (its %, _ and \ escaped). */
export const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
