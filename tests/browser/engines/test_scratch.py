from tests.browser.helpers import BROWSER
from tests.browser.engines.test_journeys import create_table, table_page
import pytest, io, time, hashlib, os
pytestmark = BROWSER
def h(png): return hashlib.md5(png).hexdigest()[:8]

@pytest.mark.parametrize("engine", ["webkit"])
def test_scratch(app_server, phones, engine):
    a = phones()
    create_table(a, app_server, "computer", ["Asha"])
    table_page(a)
    print("ua", a.look("return navigator.userAgent"))
    for i in range(3):
        a.look("var d=document.getElementById('probe')||document.body.appendChild(document.createElement('div')); d.id='probe'; d.style.cssText='position:fixed;inset:0;z-index:99999;background:'+arguments[0]", ["red","lime","blue"][i])
        t=time.time(); first=h(a._png()); n=0
        while True:
            cur=h(a._png()); n+=1
            if cur!=first or time.time()-t>8: break
        print(i, "changed after", n, "shots", round(time.time()-t,2), "s")
        a.screenshot(f"probe{i}")
