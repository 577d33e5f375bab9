/** Opens (and migrates) the database named on the command line, then says how many migrations it sees. */
import { openDatabase } from '../../server/store/sqlite/open-database.js';

const store = openDatabase(process.argv[2]!);
const { n } = store.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
store.close();
process.stdout.write(`${n}\n`);
