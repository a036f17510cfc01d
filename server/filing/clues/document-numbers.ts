/**
 * Document numbers as people write them: `RFI-012`, `RFI 12`, `RFI #12`, `rfi_012`, `SUB-045`, `QT-017`
 * (a quote), `CO-004`. Each is returned in every zero padding it may be stored with (RFI-12, RFI-012,
 * RFI-0012), upper-case, as documents_org_number_idx compares them.
 */
const documentNumberInText =
  /(?<![\p{L}\p{N}])(RFI|SUBM|SUB|CO|SI|PC|CA|CD|CERT|BUL|QUO|QT|Q|INS|CHG)\s?[#_-]?\s?(\d{1,5})(?![\p{L}\p{N}])/giu;

export const MAX_DOCUMENT_NUMBERS = 10;

export function documentNumbersIn(text: string): string[] {
  const numbers = [...text.matchAll(documentNumberInText)]
    .slice(0, MAX_DOCUMENT_NUMBERS)
    .flatMap(([, prefix, digits]) => numberVariants(prefix!.toUpperCase(), digits!));
  return [...new Set(numbers)];
}

/** `RFI`, `12` → RFI-12, RFI-012, RFI-0012: the stored zero padding is not known. */
function numberVariants(prefix: string, digits: string): string[] {
  const value = String(Number(digits));
  return [...new Set([digits, value, value.padStart(3, '0'), value.padStart(4, '0')])].map((d) => `${prefix}-${d}`);
}
