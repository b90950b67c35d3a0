/**
 * One numbered step of the team server's schema: the list of them (teamSchemaSql.ts) and a step
 * kept in a file of its own (teamPushSetBased.ts) both name this shape, so neither imports the
 * other for it.
 */
export interface TeamMigration {
  version: number;
  name: string;
  sql: string;
}
