//! A tree of jobs (a workflow job and the sub-workflows its actions
//! submit) between steps, the step being taken, and a tree run alone on a
//! queue of its own.

use super::*;

/// One job of the tree: a workflow job and what its run still needs.
#[derive(Debug)]
pub(super) struct Job {
    pub(super) graph: Arc<Graph>,
    /// Its configuration (a sub-workflow's, made when it is submitted).
    pub(super) conf: VarMap,
    /// Its id's sequence number.
    pub(super) id_sequence: u64,
    /// 0 for the top job.
    pub(super) depth: u32,
    /// A sub-workflow's own file (its relative app-paths are read beside it).
    pub(super) path: Option<String>,
    /// The job and node run of the action that runs it (a sub-workflow).
    pub(super) parent: Option<(usize, usize)>,
    pub(super) run: Run,
    /// Per node run: what an action still needs.
    pub(super) live: Vec<Option<Live>>,
    pub(super) activations: Vec<Activation>,
    pub(super) last_error_node: Option<String>,
    pub(super) external_ids: u32,
    pub(super) finished: bool,
    /// Its run was given to its parent's node run (a sub-workflow that
    /// ended, was killed, or stood so when the tree ended).
    pub(super) handed: bool,
}

impl Job {
    pub(super) fn new(
        graph: Arc<Graph>,
        conf: VarMap,
        id_sequence: u64,
        start: Millis,
        pz: ProcessingZone,
    ) -> Job {
        let name = render_in(Library::Workflow, &graph.wf.name, &conf, None, pz)
            .map_or_else(|_| graph.wf.name.text().to_string(), Cow::into_owned);
        let app_path = conf
            .get("oozie.wf.application.path")
            .cloned()
            .flatten()
            .unwrap_or_default();
        Job {
            run: Run {
                id: workflow_id(id_sequence),
                name,
                app_path,
                status: RunStatus::Running,
                started: start,
                ended: None,
                end_node: None,
                error_code: None,
                error_message: None,
                kill_message: None,
                nodes: Vec::new(),
                suspended_at: None,
            },
            graph,
            conf,
            id_sequence,
            depth: 0,
            path: None,
            parent: None,
            live: Vec::new(),
            activations: Vec::new(),
            last_error_node: None,
            external_ids: 0,
            finished: false,
            handed: false,
        }
    }
}

/// A tree of jobs: a workflow job and the sub-workflows its actions run,
/// each a job of its own as SubWorkflowActionExecutor submits them, all
/// stepping on the server's one queue. It owns what it needs between
/// steps, so a server can keep it while other work goes on.
#[derive(Debug)]
pub(crate) struct Tree {
    /// The job stepping now, and its index.
    pub(super) job: Job,
    pub(super) current: usize,
    /// Every job of the tree by index (`None`: the one in `job`).
    pub(super) jobs: Vec<Option<Job>>,
    /// Sub-workflows that ended in this step: told to their parents after it.
    pub(super) ended: Vec<usize>,
    /// The file system every job of the tree reads and changes, once a `fs`
    /// action or a `<prepare>` changed it (`None`: the scenario's).
    pub(super) fs: Option<FileSystem>,
    /// Node runs left to the whole tree.
    pub(super) budget: usize,
    /// The ids its sub-workflows were given, in order.
    pub(super) child_ids: Vec<u64>,
}

impl Tree {
    /// A tree whose top job runs `graph` with `conf` from `start`, its
    /// application read from `path` (its relative sub-workflow app-paths
    /// are read beside it, as a sub-workflow's are; `None`: where the
    /// loader reads them from).
    pub(crate) fn new(
        graph: Arc<Graph>,
        conf: VarMap,
        id_sequence: u64,
        start: Millis,
        pz: ProcessingZone,
        path: Option<String>,
    ) -> Tree {
        let mut top = Job::new(graph, conf, id_sequence, start, pz);
        top.path = path;
        Tree {
            job: top,
            current: 0,
            jobs: vec![None],
            ended: Vec::new(),
            fs: None,
            budget: MAX_NODE_RUNS,
            child_ids: Vec::new(),
        }
    }

    /// Starts the top job at `now`: its start node and the control nodes
    /// it leads to.
    pub(crate) fn start(&mut self, world: &World, server: &mut dyn Server, now: Millis) {
        let start = self.top().graph.start;
        self.switch_to(0);
        let mut runner = Runner {
            tree: self,
            world,
            server,
            now,
        };
        runner.signal(vec![(start, Vec::new())]);
        runner.tell_parents();
    }

    /// Takes step `step` at `now` (nothing when its job has ended).
    pub(crate) fn step(
        &mut self,
        world: &World,
        server: &mut dyn Server,
        now: Millis,
        step: JobStep,
    ) {
        self.switch_to(step.job);
        if self.job.finished {
            return;
        }
        let mut runner = Runner {
            tree: self,
            world,
            server,
            now,
        };
        match step.step {
            Step::AttemptEnd(r) => runner.attempt_end(r),
            Step::RetryStart(r) => runner.attempt_start(r),
        }
        runner.tell_parents();
    }

    /// Whether the top job ended (or was suspended).
    pub(crate) fn finished(&self) -> bool {
        self.top().finished
    }

    /// The ids its sub-workflows were given, in the order they were submitted.
    pub(crate) fn child_ids(&self) -> &[u64] {
        &self.child_ids
    }

    /// The top job's run, each sub-workflow's in its action's node run.
    /// Sub-workflows not given to their parents yet (suspended, still
    /// running when nothing more can happen, or stopped with a suspended
    /// top job) are given as they stand, the deepest first.
    pub(crate) fn into_run(mut self, world: &World, server: &mut dyn Server, now: Millis) -> Run {
        let mut runner = Runner {
            tree: &mut self,
            world,
            server,
            now,
        };
        for k in (1..runner.tree.jobs.len()).rev() {
            runner.hand_over(k);
        }
        self.switch_to(0);
        self.job.run
    }

    /// The top job.
    fn top(&self) -> &Job {
        self.job_at(0).unwrap_or(&self.job)
    }

    /// Job `k`, unless it is the one stepping now.
    fn job_at(&self, k: usize) -> Option<&Job> {
        self.jobs.get(k).and_then(Option::as_ref)
    }

    /// Makes job `k` the one stepping.
    pub(super) fn switch_to(&mut self, k: usize) {
        if k == self.current {
            return;
        }
        let Some(next) = self.jobs.get_mut(k).and_then(Option::take) else {
            return;
        };
        let previous = std::mem::replace(&mut self.job, next);
        if let Some(slot) = self.jobs.get_mut(self.current) {
            *slot = Some(previous);
        }
        self.current = k;
    }

    /// Adds `job` to the tree (a sub-workflow submitted now); its index.
    pub(super) fn adopt(&mut self, job: Job) -> usize {
        self.jobs.push(Some(job));
        self.jobs.len() - 1
    }

    /// The sub-workflows of job `k` not given to it yet: (node run, job).
    fn children_of(&self, k: usize) -> Vec<(usize, usize)> {
        self.jobs
            .iter()
            .enumerate()
            .filter_map(|(c, job)| {
                let job = job.as_ref()?;
                let (parent, r) = job.parent?;
                (parent == k && !job.handed).then_some((r, c))
            })
            .collect()
    }

    /// Sub-workflow job `k` (not the one stepping) killed at `now` with its
    /// parent's action (SubWorkflowActionExecutor.kill, :288-302), with
    /// the sub-workflows it runs; its run.
    fn killed_job(&mut self, k: usize, now: Millis) -> Run {
        for (r, child) in self.children_of(k) {
            let run = self.killed_job(child, now);
            if let Some(node) = self
                .jobs
                .get_mut(k)
                .and_then(Option::as_mut)
                .and_then(|job| job.run.nodes.get_mut(r))
            {
                node.child = Some(Box::new(run));
            }
        }
        let Some(job) = self.jobs.get_mut(k).and_then(Option::as_mut) else {
            return Run::default();
        };
        job.finished = true;
        job.handed = true;
        std::mem::take(&mut job.run).killed_at(now)
    }
}

/// A step being taken: the tree, what it reads, the server, the time.
pub(super) struct Runner<'s, 'w> {
    pub(super) tree: &'s mut Tree,
    pub(super) world: &'s World<'w>,
    pub(super) server: &'s mut dyn Server,
    pub(super) now: Millis,
}

/// A server of its own for a tree run alone: its queue, and its ids.
struct Alone<'i> {
    queue: EventQueue<JobStep>,
    given: std::slice::Iter<'i, u64>,
    next: u64,
}

impl Server for Alone<'_> {
    fn schedule(&mut self, at: Millis, step: JobStep) {
        self.queue.push(at, step);
    }

    fn next_id(&mut self) -> u64 {
        self.given.next().copied().unwrap_or_else(|| {
            let id = self.next;
            self.next += 1;
            id
        })
    }
}

/// Runs the workflow of `graph` as a (top) job with id `input.id_sequence`,
/// from the scenario's file system, with the sub-workflows its actions run,
/// to its end (or until nothing more can happen).
pub fn run(graph: &Arc<Graph>, input: &RunInput) -> Run {
    let world = World {
        script: input.script,
        sub_workflows: input.sub_workflows,
        pz: input.pz,
        scope: input.scope,
    };
    let (given, next): (&[u64], u64) = match input.child_ids {
        ChildIds::Counted => (&[], input.id_sequence + 1),
        ChildIds::Given { ids, then } => (ids, then),
    };
    let mut server = Alone {
        queue: EventQueue::default(),
        given: given.iter(),
        next,
    };
    let mut tree = Tree::new(
        Arc::clone(graph),
        input.conf.clone(),
        input.id_sequence,
        input.start,
        input.pz,
        input.path.map(str::to_string),
    );
    tree.start(&world, &mut server, input.start);
    let mut now = input.start;
    while !tree.finished() {
        let Some((at, step)) = server.queue.pop() else {
            break;
        };
        now = at;
        tree.step(&world, &mut server, at, step);
    }
    tree.into_run(&world, &mut server, now)
}

impl Runner<'_, '_> {
    /// Tells each sub-workflow that ended or was suspended in the last step
    /// to the action that runs it. One that ended gives it its run; one
    /// suspended keeps it (its own sub-workflows may still end) and the
    /// action waits.
    fn tell_parents(&mut self) {
        while let Some(child) = self.tree.ended.pop() {
            self.tree.switch_to(child);
            if self.tree.job.run.status != RunStatus::Suspended {
                self.hand_over(child);
                continue;
            }
            if let Some((parent, r)) = self.tree.job.parent {
                self.tree.switch_to(parent);
                if let Some(live) = self.tree.job.live.get_mut(r) {
                    *live = None;
                }
            }
        }
    }

    /// Gives sub-workflow `child`'s run, as it stands, to the action that
    /// runs it (once).
    fn hand_over(&mut self, child: usize) {
        self.tree.switch_to(child);
        let job = &mut self.tree.job;
        let Some((parent, r)) = job.parent.filter(|_| !job.handed) else {
            return;
        };
        job.handed = true;
        let run = std::mem::take(&mut job.run);
        let path = job.path.take().unwrap_or_default();
        self.tree.switch_to(parent);
        self.child_ended(r, run, &path);
    }

    pub(super) fn push(&mut self, at: Millis, step: Step) {
        if at > HORIZON {
            self.fail(
                "E0000",
                "coordc simulates up to the year 2999: an action's attempt (its duration, or its retry interval) would end later",
            );
            return;
        }
        self.server.schedule(
            at,
            JobStep {
                job: self.tree.current,
                step,
            },
        );
    }

    /// The file system as the tree's jobs left it.
    fn fs(&self) -> &FileSystem {
        self.tree.fs.as_ref().unwrap_or(&self.world.script.fs)
    }

    /// The file system, to change it.
    pub(super) fn fs_mut(&mut self) -> &mut FileSystem {
        self.tree
            .fs
            .get_or_insert_with(|| self.world.script.fs.clone())
    }

    pub(super) fn view(&self) -> RunView<'_> {
        RunView {
            id: &self.tree.job.run.id,
            conf: &self.tree.job.conf,
            name: &self.tree.job.run.name,
            app_path: &self.tree.job.run.app_path,
            nodes: &self.tree.job.run.nodes,
            last_error_node: self.tree.job.last_error_node.as_deref(),
            fs: self.fs(),
            now: self.now,
        }
    }

    pub(super) fn new_node_run(&mut self, node: usize, depth: usize) -> usize {
        let graph = &self.tree.job.graph;
        let kind = graph.nodes.get(node).unwrap_or(&Kind::End);
        self.tree.job.run.nodes.push(NodeRun {
            node,
            name: graph.name(node).to_string(),
            type_name: kind.type_name(),
            action_type: graph.action(node).map(|action| action.kind.name.clone()),
            started: self.now,
            ended: None,
            status: NodeStatus::Running,
            transition: None,
            retries: 0,
            why: None,
            resolved: None,
            error_code: None,
            error_message: None,
            external_id: None,
            tracker_uri: None,
            external_status: None,
            action_data: Vec::new(),
            counters: Vec::new(),
            child: None,
            depth,
        });
        self.tree.job.live.push(None);
        self.tree.job.run.nodes.len() - 1
    }

    /// Ends node run `r` now with `status`, going to `to`.
    pub(super) fn close(&mut self, r: usize, status: NodeStatus, to: Option<usize>) {
        let now = self.now;
        let to_name = to.map(|t| self.tree.job.graph.name(t).to_string());
        let node = self.tree.job.run.node_mut(r);
        node.ended = Some(now);
        node.status = status;
        node.transition = to_name;
    }

    /// The job FAILED (an EL error, a node that cannot run): every running
    /// action is killed.
    pub(super) fn fail(&mut self, code: &str, message: &str) {
        self.tree.job.run.error_code = Some(code.to_string());
        self.tree.job.run.error_message = Some(message.to_string());
        self.finish(RunStatus::Failed);
    }

    /// The job ends with `status`. At `end`, `kill` or a failure, the
    /// actions still running are killed, with the sub-workflows they run
    /// (workflow spec §3.1.2, §3.1.3); a suspended job leaves them as they
    /// are. A sub-workflow's end is told to its parent after the step.
    pub(super) fn finish(&mut self, status: RunStatus) {
        let job = &mut self.tree.job;
        job.run.status = status;
        job.finished = true;
        if job.parent.is_some() {
            self.tree.ended.push(self.tree.current);
        }
        if status == RunStatus::Suspended {
            self.tree.job.run.suspended_at = Some(self.now);
            return;
        }
        let now = self.now;
        self.tree.job.run.ended = Some(now);
        let ended_at = self.tree.job.run.end_node.clone();
        let children = self.tree.children_of(self.tree.current);
        for (r, child) in children {
            let run = self.tree.killed_job(child, now);
            if let Some(node) = self.tree.job.run.nodes.get_mut(r) {
                node.child = Some(Box::new(run));
            }
        }
        for node in &mut self.tree.job.run.nodes {
            if node.status == NodeStatus::Running {
                node.status = NodeStatus::Killed;
                node.ended = Some(now);
                if node.action_type.is_some() {
                    node.external_status = Some("KILLED".to_string());
                }
                if let Some(child) = node.child.take() {
                    node.child = Some(Box::new(child.killed_at(now)));
                }
                node.why = Some(Why::Text(match &ended_at {
                    Some(at) => format!("killed when the job reached `{at}`"),
                    None => "killed when the job failed".to_string(),
                }));
            }
        }
    }
}
