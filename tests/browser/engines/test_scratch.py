from tests.browser.helpers import BROWSER
from tests.browser.engines.test_journeys import create_table, table_page, version
import pytest, time
pytestmark = BROWSER

@pytest.mark.parametrize("engine", ["webkit"])
def test_scratch(app_server, phones, engine):
    a = phones()
    create_table(a, app_server, "computer", ["Asha"])
    table_page(a)
    while not a.visible("[data-open-bet-sheet]"):
        time.sleep(0.1)
    a.click("[data-open-bet-sheet]")
    a.wait_for("[data-bet-sheet]")
    a.look("window.__log=[]; ['submit','click','invalid','holdem:sent'].forEach(function(t){document.addEventListener(t,function(e){window.__log.push(t+':'+(e.target.tagName||'')+(e.target.id||'')+':'+(e.defaultPrevented))},true)}); var ws=WebSocket.prototype.send; WebSocket.prototype.send=function(d){window.__log.push('ws:'+String(d).slice(0,200)); return ws.apply(this, arguments)}")
    a.fill("[data-bet-amount]", "60")
    print(a.look("var r=document.querySelector('[data-bet-confirm]').getBoundingClientRect(); var e=document.elementFromPoint(r.x+r.width/2, r.y+r.height/2); return [r.x,r.y,r.width,r.height, e && e.outerHTML.slice(0,120), scrollY, innerHeight]"))
    print(a.look("return Array.prototype.map.call(document.querySelectorAll('[data-bet-confirm], [data-bet-cancel], [data-bet-sheet]'), function(e){var r=e.getBoundingClientRect(); var cs=getComputedStyle(e); return [e.outerHTML.slice(0,80), r.y, r.height, cs.position, cs.transform, cs.display]})"))
    print(a.look("var s=document.querySelector('.sheet__actions'); var cs=getComputedStyle(s); return [s.getBoundingClientRect().y, s.getBoundingClientRect().height, cs.display, cs.flexWrap, cs.gridTemplateColumns, s.offsetWidth]"))
    el = a.evaluate("return document.querySelector('[data-bet-confirm]')")
    print(el.rect, el.is_displayed())
    el.click()
    time.sleep(1)
    print(a.look("return window.__log"))
    print(a.look("var r=document.querySelector('[data-bet-cancel]').getBoundingClientRect(); return [r.x,r.y]"))
    time.sleep(2)
    print(a.look("return window.__log"))
    print(a.look("return [document.querySelector('[data-bet-amount]') && document.querySelector('[data-bet-amount]').validationMessage, document.getElementById('bet-sheet') && document.getElementById('bet-sheet').checkValidity()]"))
    a.screenshot("dbg")
