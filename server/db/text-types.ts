// PostgreSQL types read as PostgreSQL's text on both drivers, as the ORM wants them (it parses them itself per
// column): timestamp, timestamptz, interval, date, and the arrays numeric[], timestamp[], timestamptz[], interval[], date[].
export const textTypeIds: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

export const asText = (value: string) => value;
