import pytest
pytestmark = pytest.mark.django_db
def test_probe(client):
    r = client.get("/accounts/login/")
    html = r.content.decode()
    print(html[html.find("<main"):html.find("</main>")])
    r = client.get("/accounts/signup/")
    html = r.content.decode()
    print(html[html.find("<main"):html.find("</main>")])
