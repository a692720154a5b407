"""The development corpus ../shared/realworld, kept outside this repository,
laid out as in its repositories.

Symbolic links in a temporary folder, each repository with a `.git` folder
as its root (see that folder's README: the files are never copied into the
project), so the job configuration is found where the repository keeps it.
Used by scripts/realworld-check.sh and scripts/realworld-export.sh.
"""

import json
import os
import tempfile


def link_tree(root, prefix):
    """The folder of links (made under a fresh temporary folder), and the
    manifest's entries, each with `linked`: its file's path in the folder."""
    tree = tempfile.mkdtemp(prefix=prefix)
    linked = set()
    apps = []
    for line in open(f"{root}/manifest.jsonl"):
        app = json.loads(line)
        repo = os.path.join(tree, app["repo"].replace("/", "__"))
        os.makedirs(os.path.join(repo, ".git"), exist_ok=True)
        folder = os.path.dirname(os.path.join(repo, app["path"]))
        flat_prefix = app["file"][: -len(os.path.basename(app["path"]))]
        # The application, and every file of its folder the collection kept
        # (its properties, config-default.xml, included datasets).
        for name in os.listdir(f"{root}/files"):
            source = f"files/{name}"
            if not source.startswith(flat_prefix) or "__" in name[len(flat_prefix) - len("files/"):]:
                continue
            dest = os.path.join(folder, name[len(flat_prefix) - len("files/"):])
            if dest not in linked:
                os.makedirs(folder, exist_ok=True)
                os.symlink(f"{root}/{source}", dest)
                linked.add(dest)
        app["linked"] = os.path.join(repo, app["path"])
        apps.append(app)
    return tree, apps
