/**
 * A labelled retrieval set: problems as a teacher would file them, the strategy taught, and a
 * paraphrase of the problem as a later task might word it. Every backend must rank each entry's
 * strategy in the top 3 for its query (the conformance suite), and the bench reports recall@3.
 */
export interface LabelledStrategy {
  problem: string;
  strategy: string;
  query: string;
}

export const labelledSet: readonly LabelledStrategy[] = [
  {
    problem: "TypeScript compiler cannot find module imported through a tsconfig paths alias",
    strategy: "Check baseUrl and paths in tsconfig, and make the bundler or test runner resolve the same aliases.",
    query: "tsc says module not found for an import that uses a path alias",
  },
  {
    problem: "Jest test times out waiting for an async callback that never resolves",
    strategy: "Return or await the promise in the test, and make sure fake timers are advanced or disabled.",
    query: "unit test hangs until timeout because an async promise never settles",
  },
  {
    problem: "Git push rejected because the remote branch has commits the local branch lacks",
    strategy: "Fetch and rebase onto the remote branch, resolve conflicts, then push again without force.",
    query: "push to remote refused, local branch is behind the remote commits",
  },
  {
    problem: "Python import error: no module named package when running a script from a subfolder",
    strategy: "Run it as a module from the project root with python -m, or install the package in editable mode.",
    query: "ModuleNotFoundError for my own package when I launch the script inside a subdirectory",
  },
  {
    problem: "Docker container exits immediately after start with code 0",
    strategy: "Make the main process run in the foreground; a daemonising command ends the container.",
    query: "container stops right after it starts, exit status zero",
  },
  {
    problem: "SQL query is slow on a large table filtered by a column without an index",
    strategy: "Run EXPLAIN, add an index on the filtered column, and confirm the plan switches to an index scan.",
    query: "database select takes seconds, the where column has no index",
  },
  {
    problem: "React component re-renders in an infinite loop after calling setState inside useEffect",
    strategy: "Give useEffect a dependency array and only set state when the value actually changes.",
    query: "useEffect keeps triggering renders forever because state is set every time",
  },
  {
    problem: "CORS error when the browser calls the API from another origin",
    strategy:
      "Have the server send Access-Control-Allow-Origin for the calling origin " +
      "and answer the preflight OPTIONS request.",
    query: "browser blocks the fetch to my backend with a cross origin CORS message",
  },
  {
    problem: "npm install fails with peer dependency conflict ERESOLVE",
    strategy: "Align the conflicting versions, or add an override; use legacy-peer-deps only as a last resort.",
    query: "ERESOLVE unable to resolve dependency tree during npm install because of peer versions",
  },
  {
    problem: "Regex matches too much because the quantifier is greedy",
    strategy: "Use a lazy quantifier or a negated character class so the match stops at the first delimiter.",
    query: "regular expression greedy star swallows everything up to the last delimiter",
  },
  {
    problem: "Floating point sum of money values gives rounding errors",
    strategy: "Store money as integer cents or use a decimal type; round only when displaying.",
    query: "adding prices produces 0.30000000000000004 style rounding mistakes in currency totals",
  },
  {
    problem: "Off-by-one error when iterating an array with an inclusive loop bound",
    strategy: "Loop while index < length, and test the empty, single and last-element cases.",
    query: "loop reads past the end of the array, index bound uses <= instead of <",
  },
  {
    problem: "Race condition: two workers increment the same counter and updates are lost",
    strategy:
      "Do the increment atomically in the database (UPDATE ... SET n = n + 1) " +
      "or under a lock, never read-modify-write.",
    query: "concurrent workers lose counter increments when both update the same row",
  },
  {
    problem: "Memory leak in Node.js server from event listeners added on every request",
    strategy:
      "Register listeners once or remove them when done; watch the MaxListenersExceeded warning and heap snapshots.",
    query: "node process memory grows each request because listeners pile up",
  },
  {
    problem: "Date shown one day off because of timezone conversion from UTC",
    strategy: "Keep dates in UTC end to end and format with an explicit time zone at the edge.",
    query: "displayed day is wrong by one due to utc to local timezone shift",
  },
  {
    problem: "CSV parsing breaks on fields that contain commas inside quotes",
    strategy: "Use a real CSV parser that handles quoted fields and escaped quotes instead of splitting on commas.",
    query: "splitting csv lines on comma fails when a quoted field includes a comma",
  },
  {
    problem: "HTTP request to a third party API returns 429 too many requests",
    strategy: "Back off exponentially with jitter, honour Retry-After, and cap concurrency.",
    query: "third party api answers 429 rate limit when we send too many requests",
  },
  {
    problem: "Kubernetes pod stuck in CrashLoopBackOff after deploy",
    strategy:
      "Read the previous container logs and events, check the command, env and probes, then fix the failing start.",
    query: "pod keeps restarting in crashloopbackoff right after the deployment",
  },
  {
    problem: "SSH connection refused with permission denied publickey",
    strategy:
      "Check the key is loaded in the agent, its permissions are 600, " +
      "and the public key is in authorized_keys for that user.",
    query: "ssh login fails: permission denied (publickey)",
  },
  {
    problem: "Merge conflict in package-lock.json after rebasing",
    strategy:
      "Take either side of the lockfile, then rerun the package manager install to regenerate it; never hand-edit.",
    query: "rebase leaves conflicts inside the npm lock file",
  },
  {
    problem: "Environment variable undefined in the production build of a frontend app",
    strategy:
      "Expose it with the framework's public prefix at build time and rebuild; " +
      "runtime env is not read by static bundles.",
    query: "env var is empty after building the frontend for production",
  },
  {
    problem: "Unicode text garbled because a file was read with the wrong encoding",
    strategy: "Read and write files as UTF-8 explicitly and detect or strip a BOM at the boundary.",
    query: "accented characters turn into mojibake when the file is decoded with the wrong charset encoding",
  },
  {
    problem: "Pagination with OFFSET gets slow and skips rows when data changes",
    strategy: "Use keyset pagination: order by a unique key and query rows after the last key seen.",
    query: "offset based paging is slow and misses items while rows are inserted",
  },
  {
    problem: "Flaky end-to-end test depends on element appearing before assertion",
    strategy: "Wait for the element or network state explicitly instead of sleeping a fixed time.",
    query: "e2e browser test sometimes fails because the element is not there yet",
  },
  {
    problem: "JSON.parse throws unexpected token on an API response that is HTML",
    strategy: "Check the status and content-type before parsing; the HTML is usually an error or login page.",
    query: "unexpected token < in json when parsing the api response body",
  },
  {
    problem: "Deadlock between two database transactions updating rows in different order",
    strategy: "Lock rows in a consistent order in every transaction and retry on deadlock errors.",
    query: "two transactions deadlock because they update the same rows in opposite order",
  },
  {
    problem: "Build output too large because the bundle includes all of a utility library",
    strategy: "Import only the functions used or switch to an ES module build so tree shaking can drop the rest.",
    query: "javascript bundle size is huge since the whole utility library gets bundled",
  },
  {
    problem: "Cron job runs twice because two server instances both schedule it",
    strategy: "Run the schedule in one place or take a distributed lock (advisory lock) before doing the job.",
    query: "scheduled cron task executes twice when we scale to two instances",
  },
  {
    problem: "Password hashes stored with unsalted SHA-256",
    strategy: "Migrate to a slow salted hash such as argon2 or bcrypt, rehashing each password at next login.",
    query: "user passwords are hashed with plain sha256 and no salt",
  },
  {
    problem: "SQL injection through string concatenated query parameters",
    strategy:
      "Use parameterised queries or the driver's placeholders for every value; never build SQL from input strings.",
    query: "query built by concatenating user input strings is open to injection",
  },
  {
    problem: "Go program panics with nil map assignment",
    strategy: "Initialise the map with make before writing to it, including maps inside structs.",
    query: "golang panic: assignment to entry in nil map",
  },
  {
    problem: "Rust borrow checker error: cannot borrow as mutable because it is also borrowed as immutable",
    strategy: "Shorten the immutable borrow's scope, clone the needed value, or split the struct borrow.",
    query: "rust compile error about a mutable borrow while an immutable borrow is alive",
  },
  {
    problem: "Webpack dev server hot reload not picking up file changes in a container",
    strategy: "Enable polling in the file watcher, since inotify events do not cross the mounted volume.",
    query: "hot module reload ignores edits when files live on a docker mounted volume",
  },
  {
    problem: "Shell script fails on filenames with spaces",
    strategy: "Quote every variable expansion and iterate with null-delimited find output instead of word splitting.",
    query: "bash loop breaks when a filename has spaces in it",
  },
  {
    problem: "Long running HTTP handler blocks the Node event loop",
    strategy: "Move CPU heavy work to a worker thread or a queue, and keep handlers asynchronous.",
    query: "cpu intensive request handler freezes the event loop for other clients",
  },
  {
    problem: "Certificate verification failed when calling an internal HTTPS service",
    strategy: "Add the internal CA to the trust store (NODE_EXTRA_CA_CERTS) rather than disabling verification.",
    query: "tls error unable to verify the certificate of our internal https endpoint",
  },
  {
    problem: "Migrations out of sync: column already exists error on deploy",
    strategy: "Make migrations idempotent and tracked in a schema version table; check which ones ran before applying.",
    query: "deploy fails because a migration adds a column that already exists",
  },
  {
    problem: "Image upload fails for files larger than the server body size limit",
    strategy:
      "Raise the body limit at the proxy and the app, or upload directly to object storage with a presigned URL.",
    query: "uploading big images gets 413 payload too large from the server",
  },
  {
    problem: "Cache returns stale data after the underlying record is updated",
    strategy: "Invalidate or update the cache entry in the same code path as the write, and set a TTL as a safety net.",
    query: "cached value is outdated after the record changes in the database",
  },
  {
    problem: "Python virtual environment uses the wrong interpreter version",
    strategy: "Recreate the venv with the intended python executable and pin it in the project configuration.",
    query: "venv was created with a different python version than the one we need",
  },
  {
    problem: "Kafka consumer processes the same message more than once after a rebalance",
    strategy: "Make the handler idempotent with a processed-message key and commit offsets after processing.",
    query: "after a consumer group rebalance some kafka messages are handled twice",
  },
  {
    problem: "Spreadsheet formula returns #REF after deleting a column",
    strategy: "Use named ranges or INDEX/MATCH so references survive column changes, then repair the broken formulas.",
    query: "excel formulas show #REF! once a column was removed",
  },
  {
    problem: "Terraform plan wants to recreate a resource after a provider upgrade",
    strategy:
      "Read the provider changelog, use moved blocks or state mv, " +
      "and add lifecycle ignore_changes for computed attributes.",
    query: "terraform plan shows destroy and recreate of a resource since the provider upgrade",
  },
  {
    problem: "GraphQL query triggers N+1 database calls for nested fields",
    strategy: "Batch nested lookups with a DataLoader per request so each level issues one query.",
    query: "nested graphql fields cause one database call per item, the n+1 problem",
  },
  {
    problem: "Mobile app crashes on startup only in the release build",
    strategy:
      "Check code shrinking/obfuscation rules and symbolicate the release crash log to find the stripped class.",
    query: "android release build crashes at launch but debug works",
  },
  {
    problem: "Websocket connection drops behind a load balancer after sixty seconds",
    strategy: "Send heartbeat pings more often than the idle timeout and raise the balancer's idle timeout.",
    query: "websocket disconnects after a minute of idle behind the load balancer",
  },
  {
    problem: "LLM output is not valid JSON when asked for structured data",
    strategy:
      "Use the provider's JSON or tool-call mode with a schema, validate with zod, and retry with the error shown.",
    query: "the language model returns broken json instead of the structured output we asked for",
  },
  {
    problem: "Agent repeats the same failing tool call in a loop",
    strategy:
      "Detect identical repeated calls, stop after a limit, and change approach using the tool's error message.",
    query: "the agent keeps calling the same tool again and again with the same failing arguments",
  },
  {
    problem: "Web scraper blocked because of missing user agent and too fast requests",
    strategy: "Identify the client with a user agent, respect robots.txt, and throttle requests.",
    query: "site blocks our scraper which sends requests too fast without a user agent header",
  },
  {
    problem: "Unit tests pass locally but fail in CI because of test order dependence",
    strategy: "Reset shared state between tests and run them in random order locally to expose hidden coupling.",
    query: "tests succeed on my machine but fail on ci depending on the order they run",
  },
  {
    problem: "Excessive logging fills the disk on the production server",
    strategy: "Lower the log level, rotate and compress logs, and ship them to a central store with retention.",
    query: "log files grow until the production disk is full",
  },
  {
    problem: "Binary search returns wrong index for duplicate values",
    strategy: "Decide whether you need the lower or upper bound and keep the loop invariant for that bound.",
    query: "bisection finds some occurrence, not the first one, when the sorted array has duplicates",
  },
  {
    problem: "Recursive function overflows the stack on deep input",
    strategy: "Convert the recursion to iteration with an explicit stack, or bound the depth.",
    query: "maximum call stack size exceeded from a deeply recursive function",
  },
  {
    problem: "Email sending fails with SMTP authentication error",
    strategy: "Use an app password or OAuth for the mail provider and the right port with STARTTLS.",
    query: "smtp server rejects our login when sending email",
  },
  {
    problem: "Promise.all rejects entirely when one request fails",
    strategy: "Use Promise.allSettled and handle each result, or catch per promise, when partial results are useful.",
    query: "one failed fetch makes the whole promise all batch reject",
  },
  {
    problem: "Dockerfile rebuilds all dependencies on every source change",
    strategy: "Copy the dependency manifests and install before copying the source so the install layer stays cached.",
    query: "docker build reinstalls every dependency whenever any source file changes",
  },
];
