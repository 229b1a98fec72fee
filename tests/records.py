"""Records written by the game, kept as they were written: stored records must read, replay and
write back byte for byte (``tests/test_event_kinds.py``), and other tests start from them.

``DIGITAL``: a digital Bluffing Joker game, cut after its undo (a deal, draws, a reshuffle of a
short stock, discards, doubts, penalties, an extra turn declined). ``TABLE``: a whole game at a
real table (a doubted card turned up, a peg bumped, a penalty, an extra turn, the win).
``PHONE``: a digital game with a seat played from a phone and handed over mid-game (issue 36).
"""

from __future__ import annotations

DIGITAL = """\
{"event":"start","players":2,"teams":[[0],[2]],"rules":{"base":"basic","name":"bluffing-joker","summary":"Basic, but cards are played face down and declared; opponents may doubt.","cards":{"A":{"forward":[1],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"2":{"forward":[2],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"3":{"forward":[3],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"4":{"forward":[4],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"5":{"forward":[5],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"6":{"forward":[6],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"7":{"forward":[7],"backward":[],"come_out":false,"swap":false,"joker":false,"split":{"total":7,"directions":"forward","required":false,"any_peg":false}},"8":{"forward":[],"backward":[8],"come_out":false,"swap":false,"joker":false,"split":false},"9":{"forward":[9],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"10":{"forward":[10],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"J":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"Q":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"K":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"JOKER":{"forward":[],"backward":[],"come_out":false,"swap":false,"joker":true,"split":false}},"movers":"own-then-partner","split_into_partner":false,"joker_from":"own","home_entry":"may","hand_size":5,"draw":"before","decks":{"2":3,"4":3,"6":3,"8":4,"10":5},"jokers_per_deck":2,"extra_jokers":0,"added_jokers":{"10":4},"counting":false,"bluffing":true},"mode":"digital","seed":58,"first":0,"pegs":{"0":["T0:10","H0:3","H0:4","H0:5","S"],"2":["T2:14","H2:4","H2:5","S","S"]},"table":{"names":["Red","Blue"],"bots":{"2":"random"}}}
{"event":"deal","hands":{"0":["4","A","J","10","3"],"2":["5","9","2","7","8"]},"stock":["7","J","5","8","9","2"]}
{"event":"turn","seat":0,"number":1,"extra":false}
{"event":"draw","seat":0,"card":"2"}
{"event":"play","seat":0,"card":"A","declared":"J","text":"J S0-T0:8"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"J S0-T0:8"}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":0,"victim":2}
{"event":"penalty","seat":2,"hole":"T2:14","by":0}
{"event":"turn","seat":2,"number":2,"extra":false}
{"event":"draw","seat":2,"card":"9"}
{"event":"discard","seat":2,"card":"2"}
{"event":"turn","seat":0,"number":3,"extra":false}
{"event":"draw","seat":0,"card":"8"}
{"event":"play","seat":0,"card":"3","declared":"3","text":"3 T0:10-T0:13"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"3 T0:10-T0:13"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"draw","seat":2,"card":"5"}
{"event":"discard","seat":2,"card":"9"}
{"event":"turn","seat":0,"number":5,"extra":false}
{"event":"draw","seat":0,"card":"J"}
{"event":"undo"}
{"event":"draw","seat":0,"card":"J"}
{"event":"play","seat":0,"card":"4","declared":"K","text":"K T0:13-T1:5"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":2,"victim":0}
{"event":"penalty","seat":0,"hole":"T0:13","by":2}
{"event":"turn","seat":2,"number":6,"extra":false}
{"event":"draw","seat":2,"card":"7"}
{"event":"discard","seat":2,"card":"5"}
{"event":"turn","seat":0,"number":7,"extra":false}
{"event":"reshuffle","stock":["9","5","4","3","2","A"]}
{"event":"draw","seat":0,"card":"A"}
{"event":"play","seat":0,"card":"2","declared":"3","text":"3 T0:8-T0:11"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":2,"victim":0}
{"event":"penalty","seat":0,"hole":"T0:8","by":2}
{"event":"turn","seat":2,"number":8,"extra":false}
"""
TABLE = """\
{"event":"start","players":2,"teams":[[0],[2]],"rules":{"base":"basic","name":"bluffing-joker","summary":"Basic, but cards are played face down and declared; opponents may doubt.","cards":{"A":{"forward":[1],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"2":{"forward":[2],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"3":{"forward":[3],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"4":{"forward":[4],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"5":{"forward":[5],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"6":{"forward":[6],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"7":{"forward":[7],"backward":[],"come_out":false,"swap":false,"joker":false,"split":{"total":7,"directions":"forward","required":false,"any_peg":false}},"8":{"forward":[],"backward":[8],"come_out":false,"swap":false,"joker":false,"split":false},"9":{"forward":[9],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"10":{"forward":[10],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"J":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"Q":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"K":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"JOKER":{"forward":[],"backward":[],"come_out":false,"swap":false,"joker":true,"split":false}},"movers":"own-then-partner","split_into_partner":false,"joker_from":"own","home_entry":"may","hand_size":5,"draw":"before","decks":{"2":3,"4":3,"6":3,"8":4,"10":5},"jokers_per_deck":2,"extra_jokers":0,"added_jokers":{"10":4},"counting":false,"bluffing":true},"mode":"table","seed":0,"first":0,"pegs":{"0":["T0:10","H0:3","H0:4","H0:5","S"],"2":["T2:14","H2:4","H2:5","S","S"]}}
{"event":"turn","seat":0,"number":1,"extra":false}
{"event":"play","seat":0,"card":"Q","declared":"Q","text":"Q S0-T0:8"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"Q S0-T0:8"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":2,"extra":false}
{"event":"play","seat":2,"card":"K","declared":"K","text":"K S2-T2:8"}
{"event":"doubt","seat":0,"doubt":true}
{"event":"move","seat":2,"text":"K S2-T2:8"}
{"event":"settle","seat":2}
{"event":"penalty-due","chooser":2,"victim":0}
{"event":"penalty","seat":0,"hole":"T0:8","by":2}
{"event":"turn","seat":0,"number":3,"extra":false}
{"event":"play","seat":0,"card":"8","declared":"8","text":"8 T0:10-T0:2"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"8 T0:10-T0:2"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"play","seat":2,"card":"2","declared":"2","text":"2 T2:14-T2:16"}
{"event":"doubt","seat":0,"doubt":false}
{"event":"move","seat":2,"text":"2 T2:14-T2:16"}
{"event":"settle","seat":2}
{"event":"turn","seat":0,"number":5,"extra":false}
{"event":"play","seat":0,"card":"3","declared":"3","text":"3 T0:2-H0:2"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"3 T0:2-H0:2"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":6,"extra":false}
{"event":"play","seat":2,"card":"5","declared":"5","text":"5 T2:8-T2:13"}
{"event":"doubt","seat":0,"doubt":true}
{"event":"move","seat":2,"text":"5 T2:8-T2:13"}
{"event":"settle","seat":2}
{"event":"extra","seat":2}
{"event":"turn","seat":0,"number":7,"extra":false}
{"event":"play","seat":0,"card":"JOKER","declared":"JOKER","text":"JOKER S0-T2:16x"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"JOKER S0-T2:16x"}
{"event":"bump","seat":2,"by":0,"from":"T2:16","to":"S2"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":8,"extra":false}
{"event":"play","seat":2,"card":"2","declared":"2","text":"2 T2:13-T2:15"}
{"event":"doubt","seat":0,"doubt":false}
{"event":"move","seat":2,"text":"2 T2:13-T2:15"}
{"event":"settle","seat":2}
{"event":"turn","seat":2,"number":9,"extra":true}
{"event":"decline","seat":2}
{"event":"turn","seat":0,"number":10,"extra":false}
{"event":"undo"}
{"event":"play","seat":2,"card":"2","declared":"2","text":"2 T2:15-T2:17"}
{"event":"doubt","seat":0,"doubt":false}
{"event":"move","seat":2,"text":"2 T2:15-T2:17"}
{"event":"settle","seat":2}
{"event":"turn","seat":0,"number":10,"extra":false}
{"event":"play","seat":0,"card":"5","declared":"5","text":"5 T2:16-T3:3"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"5 T2:16-T3:3"}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":0,"victim":2}
{"event":"penalty","seat":2,"hole":"T2:17","by":0}
{"event":"turn","seat":2,"number":11,"extra":false}
{"event":"play","seat":2,"card":null,"declared":"JOKER","text":"JOKER S2-T3:3x"}
{"event":"doubt","seat":0,"doubt":true}
{"event":"reveal","seat":2,"card":"K"}
{"event":"settle","seat":2}
{"event":"extra","seat":0}
{"event":"turn","seat":0,"number":12,"extra":false}
{"event":"play","seat":0,"card":"10","declared":"10","text":"10 T3:3-T3:13"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"10 T3:3-T3:13"}
{"event":"settle","seat":0}
{"event":"extra","seat":0}
{"event":"turn","seat":0,"number":13,"extra":true}
{"event":"play","seat":0,"card":"9","declared":"9","text":"9 T3:13-H0:1"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"9 T3:13-H0:1"}
{"event":"settle","seat":0}
{"event":"win","team":[0]}
"""
# Issue 36 ("A seat played from a phone"): a digital game whose seat 2 is played from a phone,
# handed to a family bot for a turn and back; the undo after "back to the phone" takes back
# Red's turn, not the table's choice of who plays Grandma (the "seat" event stays).
PHONE = """\
{"event":"start","players":2,"teams":[[0],[2]],"rules":{"base":"basic","name":"basic","summary":"Draw to 6, play one; move only your own pegs until they are all home.","cards":{"A":{"forward":[1],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"2":{"forward":[2],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"3":{"forward":[3],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"4":{"forward":[4],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"5":{"forward":[5],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"6":{"forward":[6],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"7":{"forward":[7],"backward":[],"come_out":false,"swap":false,"joker":false,"split":{"total":7,"directions":"forward","required":false,"any_peg":false}},"8":{"forward":[],"backward":[8],"come_out":false,"swap":false,"joker":false,"split":false},"9":{"forward":[9],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"10":{"forward":[10],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"J":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"Q":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"K":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"JOKER":{"forward":[],"backward":[],"come_out":false,"swap":false,"joker":true,"split":false}},"movers":"own-then-partner","split_into_partner":false,"joker_from":"own","home_entry":"may","hand_size":5,"draw":"before","decks":{"2":3,"4":3,"6":3,"8":4,"10":5},"jokers_per_deck":2,"extra_jokers":0,"added_jokers":{"10":4},"counting":false,"bluffing":false},"mode":"digital","seed":11,"first":0,"table":{"names":["Red","Grandma"],"colours":["#e53935","#1e88e5"],"phones":[2]}}
{"event":"deal","hands":{"0":["K","8","10","7","4"],"2":["5","Q","6","Q","3"]},"stock":["10","6","3","A","8","4","7","4","7","Q","9","A","10","Q","7","10","9","J","3","3","9","K","4","5","10","7","3","A","J","8","4","A","K","K","6","2","K","4","8","A","Q","A","9","K","8","4","K","J","Q","5","2","A","6","2","J","Q","2","7","K","5","10","A","7","8","4","J","6","3","8","3","5","5","2","3","A","J","9","6","Q","4","J","J","10","3","7","3","4","J","9","8","4","J","6","8","A","6","8","6","2","7","Q","5","5","K","2","8","3","7","J","2","2","5","K","10","K","Q","6","6","7","9","5","A","A","2","J","10","9","3","10","5","2","4","8","6","7","2","5","9","9","9","10","Q","Q","10","K","9"]}
{"event":"turn","seat":0,"number":1,"extra":false}
{"event":"draw","seat":0,"card":"9"}
{"event":"play","seat":0,"card":"K"}
{"event":"move","seat":0,"text":"K S0-T0:8"}
{"event":"turn","seat":2,"number":2,"extra":false}
{"event":"seat","seat":2,"by":"family"}
{"event":"draw","seat":2,"card":"K"}
{"event":"play","seat":2,"card":"K"}
{"event":"move","seat":2,"text":"K S2-T2:8"}
{"event":"turn","seat":0,"number":3,"extra":false}
{"event":"draw","seat":0,"card":"10"}
{"event":"play","seat":0,"card":"10"}
{"event":"move","seat":0,"text":"10 T0:8-T1:0"}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"seat","seat":2,"by":"phone"}
{"event":"undo"}
{"event":"draw","seat":0,"card":"10"}
{"event":"play","seat":0,"card":"10"}
{"event":"move","seat":0,"text":"10 T0:8-T1:0"}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"draw","seat":2,"card":"Q"}
{"event":"play","seat":2,"card":"3"}
{"event":"move","seat":2,"text":"3 T2:8-T2:11"}
{"event":"turn","seat":0,"number":5,"extra":false}
{"event":"draw","seat":0,"card":"Q"}
"""
