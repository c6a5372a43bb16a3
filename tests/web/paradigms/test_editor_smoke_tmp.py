pytest_plugins = ["tests.web.paradigms.editor_support"]
import pytest
pytestmark = pytest.mark.django_db

def test_smoke(signed_in, editor, project, det_template):
    c = signed_in(editor)
    pid = project.pk; tid = det_template.pk
    for url in [f"/projects/{pid}/templates/", f"/projects/{pid}/templates/{tid}/", f"/projects/{pid}/templates/new/", f"/projects/{pid}/templates/{tid}/edit/", f"/projects/{pid}/templates/{tid}/edit/?view=yaml"]:
        r = c.get(url)
        print(url, r.status_code)
        open("/tmp/scratch/" + url.strip("/").replace("/", "_").replace("?","_") + ".html", "w").write(r.content.decode())
        assert r.status_code == 200
