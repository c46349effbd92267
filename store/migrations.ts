/**
 * Numbered, forward-only schema migrations. Never edit a migration that has shipped;
 * add a new one. `store/SCHEMA.md` documents the resulting schema.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "tasks, timeline entries, parts, kv",
    sql: `
      CREATE TABLE task (
        id            TEXT PRIMARY KEY,
        title         TEXT NOT NULL,
        project_path  TEXT,
        pinned        INTEGER NOT NULL DEFAULT 0,
        status        TEXT NOT NULL DEFAULT 'idle',
        unread        INTEGER NOT NULL DEFAULT 0,
        settings      TEXT NOT NULL DEFAULT '{}',
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE INDEX task_updated ON task(updated_at DESC);

      CREATE TABLE message (
        id          TEXT PRIMARY KEY,
        task_id     TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        pos         INTEGER NOT NULL,
        role        TEXT NOT NULL,
        status      TEXT NOT NULL,
        meta        TEXT NOT NULL DEFAULT '{}',
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        UNIQUE (task_id, pos)
      );

      CREATE TABLE part (
        message_id  TEXT NOT NULL REFERENCES message(id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        type        TEXT NOT NULL,
        text        TEXT,
        data        TEXT,
        PRIMARY KEY (message_id, idx)
      );

      CREATE TABLE kv (
        key         TEXT PRIMARY KEY,
        value       TEXT NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "model providers",
    sql: `
      CREATE TABLE provider (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        format      TEXT NOT NULL,
        base_url    TEXT NOT NULL DEFAULT '',
        api_key     TEXT NOT NULL DEFAULT '',
        enabled     INTEGER NOT NULL DEFAULT 1,
        models      TEXT NOT NULL DEFAULT '[]',
        sort        INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: "pending approvals (survive restarts)",
    sql: `
      CREATE TABLE pending (
        id          TEXT PRIMARY KEY,
        task_id     TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL,
        payload     TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );
      CREATE INDEX pending_task ON pending(task_id);
    `,
  },
  {
    version: 4,
    name: "checkpoints: pre-images of files changed in a turn",
    sql: `
      CREATE TABLE checkpoint (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id     TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        turn_id     TEXT NOT NULL,
        turn_pos    INTEGER NOT NULL,
        path        TEXT NOT NULL,
        pre_hash    TEXT,
        post_hash   TEXT,
        pre_size    INTEGER NOT NULL DEFAULT 0,
        source      TEXT NOT NULL,
        skipped     TEXT,
        created_at  INTEGER NOT NULL,
        UNIQUE (task_id, turn_id, path)
      );
      CREATE INDEX checkpoint_task ON checkpoint(task_id, turn_pos);
    `,
  },
  {
    version: 5,
    name: "projects: user-added workspace folders",
    sql: `
      CREATE TABLE project (
        id          TEXT PRIMARY KEY,
        path        TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL,
        sort        INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: "search: FTS5 trigram index over user and assistant entries",
    // search_doc maps an entry to its FTS row (rowid); deleting a message (or, by
    // cascade, its task) removes the document and, by trigger, its FTS row.
    sql: `
      CREATE TABLE search_doc (
        id          INTEGER PRIMARY KEY,
        message_id  TEXT NOT NULL UNIQUE REFERENCES message(id) ON DELETE CASCADE,
        task_id     TEXT NOT NULL
      );
      CREATE INDEX search_doc_task ON search_doc(task_id);
      CREATE VIRTUAL TABLE search_fts USING fts5(body, tokenize = 'trigram');
      CREATE TRIGGER search_doc_gone AFTER DELETE ON search_doc BEGIN
        DELETE FROM search_fts WHERE rowid = OLD.id;
      END;
      INSERT INTO search_doc (message_id, task_id)
        SELECT m.id, m.task_id FROM message m
        WHERE m.role IN ('user', 'assistant') AND EXISTS (
          SELECT 1 FROM part p WHERE p.message_id = m.id AND p.type = 'text' AND p.text <> ''
        )
        ORDER BY m.task_id, m.pos;
      INSERT INTO search_fts (rowid, body)
        SELECT d.id, (
          SELECT group_concat(p.text, char(10) ORDER BY p.idx) FROM part p
          WHERE p.message_id = d.message_id AND p.type = 'text' AND p.text <> ''
        ) FROM search_doc d;
    `,
  },
  {
    version: 7,
    name: "tasks: how the last run ended (last_run)",
    // Backfill from each task's timeline: an error entry last = failed, a stopped reply =
    // stopped, a reply cut at the step cap = maxSteps, a timeline ending in a user
    // message or a tool result (the run never answered) = interrupted, else done; a task
    // without a reply never ran. `status` keeps only the live activity from now on.
    sql: `
      ALTER TABLE task ADD COLUMN last_run TEXT;
      UPDATE task SET last_run = CASE
        WHEN status = 'error' THEN 'failed'
        WHEN NOT EXISTS (SELECT 1 FROM message m WHERE m.task_id = task.id AND m.role <> 'user')
          THEN NULL
        WHEN (SELECT m.role FROM message m WHERE m.task_id = task.id
              ORDER BY m.pos DESC LIMIT 1) = 'error' THEN 'failed'
        WHEN (SELECT m.role FROM message m WHERE m.task_id = task.id
              ORDER BY m.pos DESC LIMIT 1) IN ('user', 'tool') THEN 'interrupted'
        WHEN (SELECT m.status FROM message m WHERE m.task_id = task.id AND m.role = 'assistant'
              ORDER BY m.pos DESC LIMIT 1) = 'stopped' THEN 'stopped'
        WHEN (SELECT json_extract(m.meta, '$.truncatedBy') FROM message m
              WHERE m.task_id = task.id AND m.role = 'assistant'
              ORDER BY m.pos DESC LIMIT 1) = 'maxSteps' THEN 'maxSteps'
        ELSE 'done'
      END;
      UPDATE task SET status = 'idle' WHERE status = 'error';
    `,
  },
  {
    version: 8,
    name: "sub-agent runs and their transcripts",
    // A run belongs to its task (deleted with it); its transcript entries have the
    // shape of timeline entries, parts kept as one JSON array (replayed, not searched).
    sql: `
      CREATE TABLE subagent_run (
        id          TEXT PRIMARY KEY,
        task_id     TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        status      TEXT NOT NULL,
        payload     TEXT NOT NULL,
        started_at  INTEGER NOT NULL
      );
      CREATE INDEX subagent_run_task ON subagent_run(task_id, started_at);

      CREATE TABLE subagent_entry (
        id          TEXT PRIMARY KEY,
        run_id      TEXT NOT NULL REFERENCES subagent_run(id) ON DELETE CASCADE,
        pos         INTEGER NOT NULL,
        role        TEXT NOT NULL,
        status      TEXT NOT NULL,
        parts       TEXT NOT NULL DEFAULT '[]',
        meta        TEXT NOT NULL DEFAULT '{}',
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        UNIQUE (run_id, pos)
      );
    `,
  },
  {
    version: 9,
    name: "web push subscriptions (one per device)",
    // The endpoint is the browser's push service URL for this device: a capability,
    // so it is stored but never sent back to clients (they see its host).
    sql: `
      CREATE TABLE push_subscription (
        id          TEXT PRIMARY KEY,
        endpoint    TEXT NOT NULL UNIQUE,
        p256dh      TEXT NOT NULL,
        auth        TEXT NOT NULL,
        device      TEXT NOT NULL DEFAULT '',
        created_at  INTEGER NOT NULL,
        last_ok_at  INTEGER,
        failures    INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
  {
    version: 10,
    name: "memory: FTS5 trigram index over the memory files",
    // The files under <data dir>/memory are the source of truth; these rows follow them
    // (synced when a bucket is listed) and can be dropped at any time.
    sql: `
      CREATE TABLE memory_doc (
        id         INTEGER PRIMARY KEY,
        bucket     TEXT NOT NULL,
        memory_id  TEXT NOT NULL,
        stamp      TEXT NOT NULL,
        UNIQUE (bucket, memory_id)
      );
      CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, tokenize = 'trigram');
      CREATE TRIGGER memory_doc_gone AFTER DELETE ON memory_doc BEGIN
        DELETE FROM memory_fts WHERE rowid = OLD.id;
      END;
    `,
  },
  {
    version: 11,
    name: "automations, their runs, and an index for usage statistics",
    // The rule (JSON) is the schedule's authority; next_run_at is derived from it and
    // NULL while disabled. A run outlives its task (task_id set NULL when deleted).
    // The partial index keeps the usage queries to the model replies of a time range.
    sql: `
      CREATE TABLE automation (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        prompt       TEXT NOT NULL,
        rule         TEXT NOT NULL,
        model        TEXT,
        project_path TEXT,
        approval     TEXT NOT NULL DEFAULT 'edit',
        enabled      INTEGER NOT NULL DEFAULT 1,
        next_run_at  INTEGER,
        last_run_at  INTEGER,
        run_count    INTEGER NOT NULL DEFAULT 0,
        last_error   TEXT,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
      );
      CREATE INDEX automation_due ON automation(next_run_at) WHERE enabled = 1;

      CREATE TABLE automation_run (
        id            TEXT PRIMARY KEY,
        automation_id TEXT NOT NULL REFERENCES automation(id) ON DELETE CASCADE,
        task_id       TEXT,
        trigger       TEXT NOT NULL,
        status        TEXT NOT NULL,
        error         TEXT,
        due_at        INTEGER NOT NULL,
        started_at    INTEGER NOT NULL,
        ended_at      INTEGER
      );
      CREATE INDEX automation_run_by ON automation_run(automation_id, started_at);
      CREATE INDEX automation_run_task ON automation_run(task_id);

      CREATE INDEX message_replies ON message(created_at) WHERE role = 'assistant';
    `,
  },
  {
    version: 12,
    name: "tasks keep their options: open ones bound to the defaults of now",
    // A task whose model, effort, approval mode or sandbox level was never chosen followed
    // the system default of the moment, so changing a default changed how existing tasks
    // ran. Each open option gets what the task effectively ran with until now: the
    // default as stored in kv (the same fallbacks as getSettings when it is unset or not
    // a known value; no default model = the Demo).
    sql: `
      CREATE TEMP TABLE bind_default AS SELECT
        COALESCE((SELECT json(value) FROM kv WHERE key = 'settings.defaultModel'
            AND json_type(value, '$.providerId') = 'text'
            AND json_type(value, '$.modelId') = 'text'),
          json('{"providerId":"demo","modelId":"demo"}')) AS model,
        COALESCE((SELECT value ->> '$' FROM kv WHERE key = 'settings.defaultEffort'
            AND value ->> '$' IN ('off', 'default', 'low', 'medium', 'high', 'xhigh', 'max')),
          'default') AS effort,
        COALESCE((SELECT value ->> '$' FROM kv WHERE key = 'settings.defaultApproval'
            AND value ->> '$' IN ('plan', 'ask', 'edit', 'full')), 'edit') AS approval,
        COALESCE((SELECT value ->> '$' FROM kv WHERE key = 'settings.sandboxLevel'
            AND value ->> '$' IN ('off', 'workspace-write', 'read-only')),
          'workspace-write') AS sandbox;
      UPDATE task SET settings = json_set(settings, '$.model',
        json((SELECT json_object('providerId', model ->> '$.providerId',
          'modelId', model ->> '$.modelId') FROM bind_default)))
        WHERE settings ->> '$.model' IS NULL;
      UPDATE task SET settings = json_set(settings, '$.effort', (SELECT effort FROM bind_default))
        WHERE settings ->> '$.effort' IS NULL;
      UPDATE task SET settings = json_set(settings, '$.approval',
        (SELECT approval FROM bind_default)) WHERE settings ->> '$.approval' IS NULL;
      UPDATE task SET settings = json_set(settings, '$.sandbox', (SELECT sandbox FROM bind_default))
        WHERE settings ->> '$.sandbox' IS NULL;
      DROP TABLE bind_default;
    `,
  },
  {
    version: 13,
    name: "provider presets and options",
    // The preset a provider was made from picks its request quirks (URL shape, auth and
    // extra headers); options hold what a preset needs beyond a base URL and a key.
    sql: `
      ALTER TABLE provider ADD COLUMN preset TEXT;
      ALTER TABLE provider ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 14,
    name: "automations may run in a worktree of their own",
    // Each run's task gets its own git worktree and branch (the project must be a
    // repository), as tasks.create's `worktree` option does.
    sql: `
      ALTER TABLE automation ADD COLUMN worktree INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 15,
    name: "a project's setup command for new worktrees",
    // Run in each new worktree of the project before its task starts (copy .env,
    // npm install …); NULL = none.
    sql: `
      ALTER TABLE project ADD COLUMN setup_command TEXT;
    `,
  },
  {
    version: 16,
    name: "checkpoint modes",
    // The permission bits a file had before (null: not known), put back with its bytes.
    sql: `
      ALTER TABLE checkpoint ADD COLUMN pre_mode INTEGER;
    `,
  },
];
